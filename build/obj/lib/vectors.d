/work/main/build/obj/lib/vectors.o: lib/vectors.c \
 /work/main/include/execfolio/vectors.h \
 /work/main/include/execfolio/policy.h
/work/main/include/execfolio/vectors.h:
/work/main/include/execfolio/policy.h:
