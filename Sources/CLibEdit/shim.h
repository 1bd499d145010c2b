#include <stdio.h>
#include <wchar.h>
#include <locale.h>
#include <histedit.h>
