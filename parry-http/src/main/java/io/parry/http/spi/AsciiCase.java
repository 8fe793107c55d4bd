package io.parry.http.spi;

/** Case folding for ASCII protocol text, which must not depend on the JVM's locale. */
public final class AsciiCase {
    private AsciiCase() {}

    /** A hash equal for texts that differ only in ASCII case, as {@link String#hashCode} is for equal texts. */
    public static int hashIgnoreCase(String s) {
        int hash = 0;
        for (int i = 0; i < s.length(); i++) {
            hash = 31 * hash + toLower(s.charAt(i));
        }
        return hash;
    }

    /** The character in lower case if it is an ASCII capital letter, else itself. */
    public static char toLower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    /**
     * Compares ASCII text ignoring case. Header names are ASCII tokens, so this avoids the Unicode case
     * tables that {@link String#equalsIgnoreCase} consults for every character.
     */
    public static boolean equalsIgnoreCase(String a, String b) {
        if (a == b) {
            return true;
        }
        int length = a.length();
        if (length != b.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && toLower(x) != toLower(y)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} from {@code start} (inclusive) to {@code end} (exclusive) is {@code expected}, ignoring ASCII case. */
    public static boolean regionEqualsIgnoreCase(String s, int start, int end, String expected) {
        if (end - start != expected.length()) {
            return false;
        }
        for (int i = 0; i < expected.length(); i++) {
            if (toLower(s.charAt(start + i)) != toLower(expected.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
