# GTKWave Tcl script: grab the waveform window to a PNG and quit.
# Used by traces/screenshot.sh (run headless under xvfb-run); the parameters
# come from the environment:
#   CCLSIM_SHOT_PNG    output file (required)
#   CCLSIM_SHOT_FROM   start of the time window, in the trace's time unit (ps)
#   CCLSIM_SHOT_TO     end of the time window; both unset: the save file's view
#   CCLSIM_SHOT_FULL   1: zoom to the whole run instead
#   CCLSIM_SHOT_ALL    1: add every signal (a bare VCD without a save file)

proc cclsim_env {name default} {
    if {[info exists ::env($name)] && $::env($name) ne ""} { return $::env($name) }
    return $default
}

set out [cclsim_env CCLSIM_SHOT_PNG ""]
if {$out eq ""} {
    puts stderr "screenshot.tcl: CCLSIM_SHOT_PNG is not set"
    gtkwave::/File/Quit
}

if {[cclsim_env CCLSIM_SHOT_ALL 0]} {
    set names [list]
    for {set i 0} {$i < [gtkwave::getNumFacs]} {incr i} { lappend names [gtkwave::getFacName $i] }
    gtkwave::addSignalsFromList $names
}

set from [cclsim_env CCLSIM_SHOT_FROM ""]
set to [cclsim_env CCLSIM_SHOT_TO ""]
if {$from ne "" && $to ne ""} {
    gtkwave::setZoomRangeTimes $from $to
} elseif {[cclsim_env CCLSIM_SHOT_FULL 0]} {
    gtkwave::/Time/Zoom/Zoom_Full
}

# Let the window draw before grabbing it.
gtkwave::nop
update
after 500
update
gtkwave::/File/Grab_To_File $out
gtkwave::/File/Quit
