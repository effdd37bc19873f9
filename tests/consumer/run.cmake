# cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... -DVARIANT=plain|distributed
#       -DMPI_BUILT=ON|OFF -DCXX=... -P run.cmake
# Installs the library component of BUILD_DIR under WORK_DIR/prefix, then configures, builds and
# runs the consumer project (this folder) against it with find_package(treefix-cl):
#   plain        without MPI: find_package(MPI) is disabled, so the package must not need it;
#   distributed  with the component distributed: built and run when the library has it, else
#                configuring must fail and say that the library was built without MPI.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(status ${status} PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(must)
  run(${ARGN})
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
must(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix --component library)
set(configure ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_BUILD_TYPE=Release)
if(VARIANT STREQUAL "plain")
  must(${configure} -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
  must(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  must(${WORK_DIR}/build/rootfix_sample)
elseif(MPI_BUILT)
  must(${configure} -DUSE_DISTRIBUTED=ON)
  must(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  must(${WORK_DIR}/build/rootfix_sample)
  must(${WORK_DIR}/build/world_sample)
else()
  run(${configure} -DUSE_DISTRIBUTED=ON)
  if(status EQUAL 0 OR NOT out MATCHES "built without MPI")
    message(FATAL_ERROR "asking a build without MPI for the component distributed should fail "
                        "and say why; got status ${status}:\n${out}")
  endif()
  message(STATUS "refused as it should be:\n${out}")
endif()
