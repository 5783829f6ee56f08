/work/main/build/obj/tools/cmd_policy.o: tools/cmd_policy.c \
 tools/execfolio.h
tools/execfolio.h:
