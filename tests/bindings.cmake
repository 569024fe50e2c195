# The language bindings (issue 7): one CTest test per language, each running
# scripts/check_bindings.sh against an install of this build into a temporary
# prefix (pkg-config, as a user's project). Labels: "cpu" and "bindings";
# "nosan" keeps them out of the ASan build (they link the installed archive,
# not the sanitized objects). A missing toolchain skips visibly (exit 77).
# The install copies BUILD/doc/html, so they never run while the docs test
# rewrites it (RESOURCE_LOCK gsp_doc_html).
foreach(_lang python rust go fortran)
  add_test(NAME bindings_${_lang}
    COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/check_bindings.sh ${_lang} ${PROJECT_BINARY_DIR}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(bindings_${_lang} PROPERTIES
    LABELS "cpu;bindings;nosan" SKIP_RETURN_CODE 77 TIMEOUT 900 PROCESSORS 1 RESOURCE_LOCK gsp_doc_html
    ENVIRONMENT "GSP_DATA_DIR=${GSP_DATA_DIR};GSP_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endforeach()
