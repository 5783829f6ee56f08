/work/main/build/obj/tools/main.o: tools/main.c
