# The layers of cclsim and the one rule between them: arrows point down.
#
#   sc_main    the board executables (one sc_main per board)
#   cli        the command line: workloads, the run session, reports, sweeps
#   host       host side of the device code: builders, program factories, ProcessGroup
#   tools      sweep and coverify: drive the executables, no SystemC
#   runtime    the tt-metal-shaped host API: programs, kernels, buffers, dispatch
#   firmware   device code: what runs on a simulated core
#   platforms  boards: cluster descriptors and the platform top level
#   models     hardware models (and the strict YAML reader)
#   golden     the independent reference of every op's output bytes
#
# A layer may use the layers listed for it below and nothing else. Two things
# hold a target to that:
#   - its include root: <build>/include/<layer>/ holds a link to each source
#     folder the layer may include and no other, so `#include
#     "runtime/Runtime.h"` in firmware does not compile;
#   - cclsim_check_layers(), called at the end of the top-level
#     CMakeLists.txt: a target that links a target of a layer it may not use
#     stops the configuration, naming both.
# docs/architecture.md#layers explains the layers; tests/packaging/layers
# shows both checks refusing a firmware target that reaches for the runtime.

set(CCLSIM_LAYERS golden models platforms firmware runtime host tools cli sc_main)
set(CCLSIM_LAYER_USES_golden golden)
set(CCLSIM_LAYER_USES_models models)
set(CCLSIM_LAYER_USES_platforms platforms models)
set(CCLSIM_LAYER_USES_firmware firmware models)
set(CCLSIM_LAYER_USES_runtime runtime platforms models)
set(CCLSIM_LAYER_USES_host host runtime firmware platforms models golden)
set(CCLSIM_LAYER_USES_tools tools models)
set(CCLSIM_LAYER_USES_cli cli host runtime firmware platforms models golden tools)
set(CCLSIM_LAYER_USES_sc_main sc_main cli host runtime firmware platforms models golden tools)

# The source folders a layer may include (its include root). A layer is one
# top-level folder, so these are the layers it uses.
function(cclsim_layer_include_root layer out)
  if(NOT DEFINED CCLSIM_LAYER_USES_${layer})
    message(FATAL_ERROR "no cclsim layer '${layer}' (layers: ${CCLSIM_LAYERS})")
  endif()
  set(root ${CMAKE_BINARY_DIR}/include/${layer})
  foreach(folder IN LISTS CCLSIM_LAYER_USES_${layer})
    if(NOT EXISTS ${root}/${folder})
      file(MAKE_DIRECTORY ${root})
      file(CREATE_LINK ${CCLSIM_ROOT}/${folder} ${root}/${folder} SYMBOLIC RESULT rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "cannot link ${root}/${folder} to ${CCLSIM_ROOT}/${folder}: ${rc}")
      endif()
    endif()
  endforeach()
  set(${out} ${root} PARENT_SCOPE)
endfunction()

# Under the sanitizers the layers outside the simulation (the command line,
# the tools, the boards' mains, the host code that builds programs and the
# platforms that wire boards, both before a run starts) are built at -O0
# (cclsim_compile_fast): the sanitizer stage's tests spend their time in the
# models and firmware, which stay at -O1, and these layers are more than half
# of that build.
set(CCLSIM_SANITIZE_FAST_LAYERS cli tools sc_main host platforms)
function(cclsim_layer_optimisation target layer)
  if(CCLSIM_SANITIZE AND layer IN_LIST CCLSIM_SANITIZE_FAST_LAYERS)
    cclsim_compile_fast(${target})
  endif()
endfunction()

# cclsim_library(<name> LAYER <layer> [INTERFACE] SOURCES ... [PUBLIC ...] [PRIVATE ...])
#
# A static library cclsim_<name> of the layer (an INTERFACE library for
# header-only ones), its ALIAS cclsim::<name>, the layer's include root, the
# project's warnings.
function(cclsim_library name)
  cmake_parse_arguments(L "INTERFACE" "LAYER" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  if(NOT L_LAYER OR L_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cclsim_library(${name} LAYER <layer> SOURCES ...): got '${ARGN}'")
  endif()
  cclsim_layer_include_root(${L_LAYER} root)
  set(target cclsim_${name})
  if(L_INTERFACE)
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${root})
    target_link_libraries(${target} INTERFACE ${L_PUBLIC})
  else()
    add_library(${target} STATIC ${L_SOURCES})
    target_include_directories(${target} PUBLIC ${root})
    target_link_libraries(${target} PUBLIC ${L_PUBLIC} PRIVATE ${L_PRIVATE} cclsim_warnings)
  endif()
  add_library(cclsim::${name} ALIAS ${target})
  if(NOT L_INTERFACE)
    cclsim_layer_optimisation(${target} ${L_LAYER})
  endif()
  set_target_properties(${target} PROPERTIES CCLSIM_LAYER ${L_LAYER})
  set_property(GLOBAL APPEND PROPERTY CCLSIM_LAYERED_TARGETS ${target})
endfunction()

# An executable of a layer (the boards of sc_main/, the tools): its include
# root, the check of what it links.
function(cclsim_layered_executable target layer)
  cclsim_layer_include_root(${layer} root)
  target_include_directories(${target} PRIVATE ${root})
  cclsim_layer_optimisation(${target} ${layer})
  set_target_properties(${target} PROPERTIES CCLSIM_LAYER ${layer})
  set_property(GLOBAL APPEND PROPERTY CCLSIM_LAYERED_TARGETS ${target})
endfunction()

# Every layered target links only targets of the layers it may use.
function(cclsim_check_layers)
  get_property(targets GLOBAL PROPERTY CCLSIM_LAYERED_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(layer ${t} CCLSIM_LAYER)
    get_target_property(type ${t} TYPE)
    set(deps "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${t} LINK_LIBRARIES)
      if(direct)
        list(APPEND deps ${direct})
      endif()
    endif()
    get_target_property(iface ${t} INTERFACE_LINK_LIBRARIES)
    if(iface)
      list(APPEND deps ${iface})
    endif()
    list(REMOVE_DUPLICATES deps)
    string(REPLACE ";" ", " uses "${CCLSIM_LAYER_USES_${layer}}")
    foreach(d IN LISTS deps)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
      if(NOT TARGET ${d})
        continue()
      endif()
      get_target_property(real ${d} ALIASED_TARGET)
      if(NOT real)
        set(real ${d})
      endif()
      get_target_property(dlayer ${real} CCLSIM_LAYER)
      if(NOT dlayer)
        continue()  # a package (SystemC, yaml-cpp, ...) or cclsim_warnings
      endif()
      if(NOT dlayer IN_LIST CCLSIM_LAYER_USES_${layer})
        message(SEND_ERROR "layering: ${t} (layer ${layer}) links ${real} (layer ${dlayer}); "
                           "${layer} may use only ${uses} (cmake/CclsimLayers.cmake)")
      endif()
    endforeach()
  endforeach()
endfunction()
