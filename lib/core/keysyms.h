/*
 * The keysym numbers the press_key grammar (keys.c) and the keysym name
 * tables (keysyms.c) use by name, and what keysyms.c lends keys.c.
 * Private to those two files.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_KEYSYMS_H
#define CUA_CORE_KEYSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "keys.h"

/* Keysyms used by name in keys.c and keysyms.c. */

#define KS_space 0x0020
#define KS_plus 0x002b
#define KS_minus 0x002d
#define KS_L 0x004c
#define KS_l 0x006c
#define KS_EuroSign 0x20ac
#define KS_ISO_Level3_Shift 0xfe03
#define KS_Terminate_Server 0xfed5
#define KS_BackSpace 0xff08
#define KS_Tab 0xff09
#define KS_Return 0xff0d
#define KS_Pause 0xff13
#define KS_Scroll_Lock 0xff14
#define KS_Sys_Req 0xff15
#define KS_Escape 0xff1b
#define KS_Home 0xff50
#define KS_Left 0xff51
#define KS_Up 0xff52
#define KS_Right 0xff53
#define KS_Down 0xff54
#define KS_Prior 0xff55
#define KS_Next 0xff56
#define KS_End 0xff57
#define KS_Print 0xff61
#define KS_Insert 0xff63
#define KS_Menu CUA_KEYSYM_MENU
#define KS_Num_Lock 0xff7f
#define KS_KP_Enter 0xff8d
#define KS_KP_Delete 0xff9f
#define KS_F1 0xffbe
#define KS_F12 0xffc9
#define KS_Shift_L 0xffe1
#define KS_Shift_R 0xffe2
#define KS_Control_L 0xffe3
#define KS_Control_R 0xffe4
#define KS_Caps_Lock 0xffe5
#define KS_Meta_L 0xffe7
#define KS_Meta_R 0xffe8
#define KS_Alt_L 0xffe9
#define KS_Alt_R 0xffea
#define KS_Super_L 0xffeb
#define KS_Super_R 0xffec
#define KS_Hyper_L 0xffed
#define KS_Hyper_R 0xffee
#define KS_Delete 0xffff
#define KS_XF86Switch_VT_1 0x1008fe01
#define KS_XF86Switch_VT_12 0x1008fe0c
#define KS_XF86Standby 0x1008ff10
#define KS_XF86PowerOff 0x1008ff2a
#define KS_XF86ScreenSaver 0x1008ff2d
#define KS_XF86Sleep 0x1008ff2f
#define KS_XF86LogOff 0x1008ff61
#define KS_XF86Suspend 0x1008ffa7
#define KS_XF86Hibernate 0x1008ffa8

#define KS_UNICODE 0x01000000

/* Whether code point cp is a C0 or C1 control character. */
int
cua_keys_is_control(uint32_t cp);

/*
 * One name of the press_key grammar to a keysym: modifier names, aliases,
 * X keysym names, `U20AC`, a unique case-insensitive keysym name, or a
 * single character; 0 when unknown. `flags` are CUA_KEYS_* of
 * cua_keys_parse() (CUA_KEYS_SUPER_IS_SUPER).
 */
uint32_t
cua_keysym_resolve(const char *s, size_t len, uint32_t flags);

#endif
