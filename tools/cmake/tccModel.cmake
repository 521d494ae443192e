# tccModel.cmake - tcc_add_model: compile an ONNX model at build time and
# link it into a target.
#
#   tcc_add_model(<target> MODEL <model.onnx> [NAME <name>]
#                 [DIMS <dim>=<value>...] [TARGET cpu|cuda]
#                 [WEIGHTS embed|file] [OPTIONS <tcc compile option>...])
#
# runs `tcc compile` into <build dir>/tcc_models/<name>/ (<name>.o and
# <name>.h, and <name>.weights with WEIGHTS file), adds the object to
# <target>'s sources, that folder to its include path (#include "<name>.h")
# and links tcc::runtime. The compile re-runs when the model file, the
# arguments or the tcc binary change. NAME (the header's symbol prefix)
# defaults to the model's file name made a C identifier. With WEIGHTS file,
# <name>_WEIGHTS_FILE is set in the caller's scope to the weights file's
# path (the program opens it with <name>_weights_open).
function(tcc_add_model target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "MODEL;NAME;TARGET;WEIGHTS"
                        "DIMS;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
            "tcc_add_model: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "tcc_add_model: '${target}' is not a target")
  endif()
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "tcc_add_model(${target}): MODEL <file.onnx> is required")
  endif()
  get_filename_component(model "${ARG_MODEL}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${model}")
    message(FATAL_ERROR "tcc_add_model(${target}): no model file ${model}")
  endif()
  if(NOT ARG_NAME)
    get_filename_component(ARG_NAME "${model}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${ARG_NAME}" ARG_NAME)
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z][A-Za-z0-9_]*$")
    message(FATAL_ERROR "tcc_add_model(${target}): NAME '${ARG_NAME}' is not "
                        "a C identifier that starts with a letter")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tcc_models/${ARG_NAME}")
  set(object "${dir}/${ARG_NAME}.o")
  set(header "${dir}/${ARG_NAME}.h")
  set(args compile "${model}" -o "${object}" --name "${ARG_NAME}")
  foreach(dim IN LISTS ARG_DIMS)
    list(APPEND args --dim "${dim}")
  endforeach()
  # KEYWORD a b: the value must be a or b; it becomes --option value.
  foreach(choice "TARGET;target;cpu;cuda" "WEIGHTS;weights;embed;file")
    list(GET choice 0 keyword)
    list(GET choice 1 option)
    list(GET choice 2 first)
    list(GET choice 3 second)
    set(value "${ARG_${keyword}}")
    if(value AND NOT value MATCHES "^(${first}|${second})$")
      message(FATAL_ERROR "tcc_add_model(${target}): ${keyword} must be "
                          "${first} or ${second}, not '${value}'")
    endif()
    if(value)
      list(APPEND args "--${option}" "${value}")
    endif()
  endforeach()
  set(outputs "${object}" "${header}")
  if(ARG_WEIGHTS)
    if(ARG_WEIGHTS STREQUAL "file")
      list(APPEND outputs "${dir}/${ARG_NAME}.weights")
      set(${ARG_NAME}_WEIGHTS_FILE "${dir}/${ARG_NAME}.weights" PARENT_SCOPE)
    endif()
  endif()
  list(APPEND args ${ARG_OPTIONS})
  # The arguments, in a file the compile depends on: rewritten (and the
  # compile re-run) only when they change, whatever the generator.
  string(REPLACE ";" "\n" text "${args}")
  file(CONFIGURE OUTPUT "${dir}/arguments.txt" CONTENT "${text}\n" @ONLY)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND tcc::tcc ${args}
    DEPENDS "${model}" "$<TARGET_FILE:tcc::tcc>" "${dir}/arguments.txt"
    COMMENT "tcc: compiling ${ARG_MODEL} (${ARG_NAME}.o, ${ARG_NAME}.h)"
    VERBATIM)
  set_source_files_properties("${object}" PROPERTIES EXTERNAL_OBJECT TRUE
                                                     GENERATED TRUE)
  target_sources("${target}" PRIVATE "${object}" "${header}")
  target_include_directories("${target}" PRIVATE "${dir}")
  target_link_libraries("${target}" PRIVATE tcc::runtime)
endfunction()
