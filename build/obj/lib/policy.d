/work/main/build/obj/lib/policy.o: lib/policy.c \
 /work/main/include/execfolio/policy.h
/work/main/include/execfolio/policy.h:
