/work/main/build/obj/tests/unit/test_policy.o: tests/unit/test_policy.c \
 /work/main/include/execfolio/policy.h \
 /work/main/include/execfolio/vectors.h
/work/main/include/execfolio/policy.h:
/work/main/include/execfolio/vectors.h:
