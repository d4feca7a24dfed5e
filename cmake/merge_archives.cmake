# merge_archives.cmake - writes OUT, one static archive holding every member
# of the archives in LIBS ("|"-separated), with AR's MRI script mode (GNU
# binutils ar -M).  librxlab.a, the static form of the installed library.
string(REPLACE "|" ";" LIBS "${LIBS}")
set(mri "CREATE ${OUT}.tmp\n")
foreach(l ${LIBS})
  string(APPEND mri "ADDLIB ${l}\n")
endforeach()
string(APPEND mri "SAVE\nEND\n")
file(WRITE ${OUT}.mri "${mri}")
file(REMOVE ${OUT}.tmp)
execute_process(COMMAND ${AR} -M INPUT_FILE ${OUT}.mri RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${AR} -M could not merge ${LIBS}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.mri)
