package io.parry.testing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader (RFC 8259) for the problem bodies the assertions check, so the test kit
 * needs no JSON library. Objects become {@code Map<String, Object>} in member order, arrays
 * {@code List<Object>}, numbers {@link BigDecimal}, and {@code null} a {@code null} value.
 */
final class Json {
    private static final int MAX_DEPTH = 64;

    private final String text;
    private int position;

    private Json(String text) {
        this.text = text;
    }

    /**
     * Reads one JSON value that fills the whole text.
     *
     * @throws IllegalArgumentException if the text is not JSON, naming the offset of the fault
     */
    static Object parse(String text) {
        Json json = new Json(text);
        Object value = json.value(0);
        json.skipSpace();
        if (json.position != text.length()) {
            throw json.error("end of input");
        }
        return value;
    }

    /**
     * Reads one JSON object that fills the whole text.
     *
     * @throws IllegalArgumentException if the text is not a JSON object
     */
    static Map<String, Object> parseObject(String text) {
        Json json = new Json(text);
        json.skipSpace();
        if (json.peek() != '{') {
            throw json.error("an object");
        }
        Map<String, Object> members = json.object(0);
        json.skipSpace();
        if (json.position != text.length()) {
            throw json.error("end of input");
        }
        return members;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("at most " + MAX_DEPTH + " levels of nesting");
        }
        skipSpace();
        if (position == text.length()) {
            throw error("a value");
        }
        char c = text.charAt(position);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("a value");
        }
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> members = new LinkedHashMap<>();
        position++;
        skipSpace();
        if (peek() == '}') {
            position++;
            return Collections.unmodifiableMap(members);
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("a member name");
            }
            String name = string();
            skipSpace();
            expect(':');
            members.put(name, value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                position++;
            } else {
                expect('}');
                return Collections.unmodifiableMap(members);
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> elements = new ArrayList<>();
        position++;
        skipSpace();
        if (peek() == ']') {
            position++;
            return Collections.unmodifiableList(elements);
        }
        while (true) {
            elements.add(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                position++;
            } else {
                expect(']');
                return Collections.unmodifiableList(elements);
            }
        }
    }

    private String string() {
        position++;
        StringBuilder out = new StringBuilder();
        while (position < text.length()) {
            char c = text.charAt(position++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("no control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (position == text.length()) {
                break;
            }
            char escaped = text.charAt(position++);
            switch (escaped) {
                case '"':
                case '\\':
                case '/':
                    out.append(escaped);
                    break;
                case 'b':
                    out.append('\b');
                    break;
                case 'f':
                    out.append('\f');
                    break;
                case 'n':
                    out.append('\n');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case 'u':
                    out.append(hexChar());
                    break;
                default:
                    position--;
                    throw error("an escape sequence");
            }
        }
        throw error("the end of a string");
    }

    private char hexChar() {
        if (position + 4 > text.length()) {
            throw error("four hex digits");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            char c = text.charAt(position);
            // Not Character.digit, which also takes fullwidth and other non-ASCII digits.
            int digit = c <= 0x7f ? Character.digit(c, 16) : -1;
            if (digit < 0) {
                throw error("a hex digit");
            }
            value = value * 16 + digit;
            position++;
        }
        return (char) value;
    }

    private BigDecimal number() {
        int start = position;
        if (peek() == '-') {
            position++;
        }
        if (peek() == '0') {
            position++;
        } else {
            digits();
        }
        if (peek() == '.') {
            position++;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            position++;
            if (peek() == '+' || peek() == '-') {
                position++;
            }
            digits();
        }
        return new BigDecimal(text.substring(start, position));
    }

    private void digits() {
        int start = position;
        while (peek() >= '0' && peek() <= '9') {
            position++;
        }
        if (position == start) {
            throw error("a digit");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, position)) {
            throw error("a value");
        }
        position += word.length();
        return value;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        position++;
    }

    /** The next character, or 0 at the end. */
    private char peek() {
        return position < text.length() ? text.charAt(position) : 0;
    }

    private void skipSpace() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            position++;
        }
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("not JSON at offset " + position + " (expected: " + expected + ")");
    }
}
