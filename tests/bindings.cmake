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

# The linking recipes of README.md and doc/bindings.md (C with pkg-config,
# shared with an rpath and static; Fortran shared and static; Go with an
# rpath for go build and go test, and static), each run as written against
# an install into a temporary prefix outside the system paths; the script
# also fails when a recipe line of the docs is not among those it runs.
# gsp.pc's libdir/includedir must be clean (no `..`, no `//`). Skips (77)
# what lacks its toolchain, saying so.
add_test(NAME link_recipes
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/check_link_recipes.sh ${PROJECT_BINARY_DIR}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(link_recipes PROPERTIES
  LABELS "cpu;bindings;nosan" SKIP_RETURN_CODE 77 TIMEOUT 900 PROCESSORS 1 RESOURCE_LOCK gsp_doc_html)

# The Python package from a clone, as README says: pip install
# ./bindings/python on a copy of the tracked files with no libgsp installed
# anywhere, so setup.py builds libgsp (CPU only, to keep CI short) with CMake
# and ships it in a wheel tagged for the platform; then gsp.csgraph imports
# and answers. Skips (77) without git, cmake or a python3 with pip,
# setuptools, wheel and numpy.
add_test(NAME bindings_python_clone_install
  COMMAND sh ${PROJECT_SOURCE_DIR}/bindings/python/tests/check_clone_install.sh
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(bindings_python_clone_install PROPERTIES
  LABELS "cpu;bindings;nosan" SKIP_RETURN_CODE 77 TIMEOUT 900 PROCESSORS 2)
