package io.parry.gateway.internal.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Replaces {@code ${NAME}} and {@code ${NAME:default}} placeholders in the raw text of a configuration
 * file, before it is parsed, so placeholders work anywhere a value can be written, also inside flow
 * mappings. <code>$${</code> writes a literal <code>${</code>. Comments are left alone. Inside a quoted scalar
 * the value is escaped for that quoting; in a plain or block scalar it is inserted as it is.
 *
 * <p>Remembers each replacement so that a position in the substituted text maps back to the one the
 * user wrote.
 */
final class Substitution {
    private final String text;
    private final Map<Integer, List<Replacement>> replacementsByLine;

    /** A placeholder that was {@code originalLength} characters at {@code originalColumn} and became {@code length}. */
    private record Replacement(int column, int length, int originalColumn, int originalLength) {}

    private Substitution(String text, Map<Integer, List<Replacement>> replacementsByLine) {
        this.text = text;
        this.replacementsByLine = replacementsByLine;
    }

    /** The text with every placeholder replaced; errors for a missing variable or a malformed placeholder. */
    static Substitution apply(String text, Map<String, String> env, ConfigErrors errors) {
        return new Scanner(text, env, errors).run();
    }

    /** The substituted text. */
    String text() {
        return text;
    }

    /** Where a 1-based position in the substituted text was written; inside a replacement, the placeholder's start. */
    Location original(int line, int column) {
        List<Replacement> replacements = replacementsByLine.get(line);
        if (replacements == null) {
            return new Location(line, column);
        }
        int shift = 0;
        for (Replacement r : replacements) {
            if (column < r.column) {
                break;
            }
            if (column < r.column + r.length) {
                return new Location(line, r.originalColumn);
            }
            shift += r.originalLength - r.length;
        }
        return new Location(line, column + shift);
    }

    private static final class Scanner {
        private final String in;
        private final Map<String, String> env;
        private final ConfigErrors errors;
        private final StringBuilder out;
        private final Map<Integer, List<Replacement>> replacements = new HashMap<>();
        private int line = 1;
        private int lineStart;
        private int outLineStart;
        private char quote;
        private int commentStart = -1;
        private int blockIndent = -1;
        private boolean blockLine;

        Scanner(String in, Map<String, String> env, ConfigErrors errors) {
            this.in = in;
            this.env = env;
            this.errors = errors;
            this.out = new StringBuilder(in.length() + 64);
        }

        Substitution run() {
            int i = 0;
            while (i < in.length()) {
                char c = in.charAt(i);
                if (c == '\n') {
                    endLine(i);
                    out.append(c);
                    i++;
                    line++;
                    lineStart = i;
                    outLineStart = out.length();
                    startLine();
                } else if (!blockLine && quote == 0 && c == '#' && (i == lineStart || isBlank(in.charAt(i - 1)))) {
                    commentStart = i;
                    i = skipComment(i);
                } else if (c == '$' && in.startsWith("$${", i)) {
                    replace(i - lineStart + 1, 3, "${");
                    i += 3;
                } else if (c == '$' && in.startsWith("${", i)) {
                    i = placeholder(i);
                } else if (blockLine) {
                    out.append(c);
                    i++;
                } else {
                    i = copy(i, c);
                }
            }
            return new Substitution(out.toString(), replacements);
        }

        private int skipComment(int i) {
            int end = in.indexOf('\n', i);
            end = end < 0 ? in.length() : end;
            out.append(in, i, end);
            return end;
        }

        /** A line ending in {@code |} or {@code >} opens a block scalar, whose lines hold no quotes or comments. */
        private void endLine(int end) {
            if (!blockLine && quote == 0 && opensBlockScalar(commentStart >= 0 ? commentStart : end)) {
                blockIndent = indent();
            }
            commentStart = -1;
        }

        /** A block scalar goes on while lines are blank or indented more than the line that opened it. */
        private void startLine() {
            if (blockIndent < 0) {
                return;
            }
            blockLine = isBlankLine() || indent() > blockIndent;
            if (!blockLine) {
                blockIndent = -1;
            }
        }

        private boolean opensBlockScalar(int end) {
            while (end > lineStart && (isBlank(in.charAt(end - 1)) || in.charAt(end - 1) == '\r')) {
                end--;
            }
            int start = end;
            while (start > lineStart && !isBlank(in.charAt(start - 1))) {
                start--;
            }
            if (start == end || end - start > 3 || (in.charAt(start) != '|' && in.charAt(start) != '>')) {
                return false;
            }
            for (int i = start + 1; i < end; i++) {
                if ("+-0123456789".indexOf(in.charAt(i)) < 0) {
                    return false;
                }
            }
            return true;
        }

        private int indent() {
            int i = lineStart;
            while (i < in.length() && in.charAt(i) == ' ') {
                i++;
            }
            return i - lineStart;
        }

        private boolean isBlankLine() {
            for (int i = lineStart; i < in.length() && in.charAt(i) != '\n'; i++) {
                if (!isBlank(in.charAt(i)) && in.charAt(i) != '\r') {
                    return false;
                }
            }
            return true;
        }

        /** Copies one character, or two for an escaped quote, following which quoting the text is in. */
        private int copy(int i, char c) {
            if (quote == 0) {
                if ((c == '"' || c == '\'') && startsScalar(i)) {
                    quote = c;
                }
            } else if (quote == '\'' && in.startsWith("''", i)) {
                out.append("''");
                return i + 2;
            } else if (quote == '"' && c == '\\' && i + 1 < in.length() && in.charAt(i + 1) != '\n') {
                out.append(c).append(in.charAt(i + 1));
                return i + 2;
            } else if (c == quote) {
                quote = 0;
            }
            out.append(c);
            return i + 1;
        }

        private int placeholder(int start) {
            int close = in.indexOf('}', start + 2);
            int lineEnd = in.indexOf('\n', start);
            Location at = new Location(line, start - lineStart + 1);
            if (close < 0 || (lineEnd >= 0 && close > lineEnd)) {
                errors.addAndMuteLine(
                        at,
                        "unclosed placeholder '" + in.substring(start, lineEnd < 0 ? in.length() : lineEnd)
                                + "' (expected ${NAME} or ${NAME:default})");
                int end = lineEnd < 0 ? in.length() : lineEnd;
                out.append(in, start, end);
                return end;
            }
            String body = in.substring(start + 2, close);
            int colon = body.indexOf(':');
            String name = colon < 0 ? body : body.substring(0, colon);
            String written = in.substring(start, close + 1);
            String value;
            if (!isName(name)) {
                errors.addAndMuteLine(
                        at,
                        "invalid placeholder '" + written
                                + "' (expected ${NAME} or ${NAME:default}, NAME made of letters, digits and _)");
                value = written;
            } else if (env.containsKey(name)) {
                value = env.get(name);
                if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                    errors.addAndMuteLine(
                            at,
                            "environment variable '" + name
                                    + "' holds a line break, which a placeholder cannot insert");
                    value = "";
                }
            } else if (colon >= 0) {
                value = body.substring(colon + 1);
            } else {
                errors.addAndMuteLine(
                        at,
                        "environment variable '" + name + "' is not set and the placeholder has no default"
                                + " (set it, or write ${" + name + ":default})");
                value = "";
            }
            replace(at.column(), written.length(), escapeForQuote(value));
            return close + 1;
        }

        private void replace(int originalColumn, int originalLength, String value) {
            List<Replacement> onLine = replacements.get(line);
            if (onLine == null) {
                onLine = new ArrayList<>(2);
                replacements.put(line, onLine);
            }
            onLine.add(
                    new Replacement(out.length() - outLineStart + 1, value.length(), originalColumn, originalLength));
            out.append(value);
        }

        private String escapeForQuote(String value) {
            if (quote == '"') {
                return value.replace("\\", "\\\\").replace("\"", "\\\"");
            }
            if (quote == '\'') {
                return value.replace("'", "''");
            }
            return value;
        }

        /** A quote opens a quoted scalar only where a value starts, not inside a plain one such as {@code it's}. */
        private boolean startsScalar(int i) {
            int j = i - 1;
            while (j >= lineStart && isBlank(in.charAt(j))) {
                j--;
            }
            return j < lineStart || ":-[{,?".indexOf(in.charAt(j)) >= 0;
        }

        private static boolean isBlank(char c) {
            return c == ' ' || c == '\t';
        }

        private static boolean isName(String name) {
            if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
                return false;
            }
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
                if (!ok) {
                    return false;
                }
            }
            return true;
        }
    }
}
