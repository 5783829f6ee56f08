/work/main/build/obj/lib/json.o: lib/json.c \
 /work/main/include/execfolio/json.h
/work/main/include/execfolio/json.h:
