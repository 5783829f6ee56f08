/work/main/build/obj/tools/main.o: tools/main.c tools/execfolio.h
tools/execfolio.h:
