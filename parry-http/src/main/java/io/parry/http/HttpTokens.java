package io.parry.http;

/** Character classes of RFC 9110, section 5.6, checked without regex. */
final class HttpTokens {
    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private HttpTokens() {}

    static boolean isToken(CharSequence s) {
        int length = s.length();
        if (length == 0) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 128 || !TCHAR[c]) {
                return false;
            }
        }
        return true;
    }

    /** A field value may hold visible characters, spaces and tabs, and obs-text; never CR, LF or NUL. */
    static boolean isFieldValue(CharSequence s) {
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                return false;
            }
        }
        return true;
    }
}
