/work/main/build/obj/tools/cmd_scan.o: tools/cmd_scan.c tools/execfolio.h
tools/execfolio.h:
