/work/main/build/obj/tools/cmd_stat.o: tools/cmd_stat.c tools/execfolio.h
tools/execfolio.h:
