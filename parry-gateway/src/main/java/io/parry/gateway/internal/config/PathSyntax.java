package io.parry.gateway.internal.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The paths routes match: literal paths and prefixes, and templates of literal segments,
 * {@code {name}} parameters and a last {@code {*name}} catch-all. Checks them once at load, returning
 * what is wrong as the end of a sentence.
 */
final class PathSyntax {
    static final String PARAMETER_SYNTAX = "{name} or, last, {*name}, with a name of letters, digits and _";

    private PathSyntax() {}

    /** What is wrong with a literal path or prefix, or {@code null} if nothing. */
    static String literalProblem(String path) {
        if (!path.startsWith("/")) {
            return "it does not start with /";
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '{' || c == '}') {
                return "it holds a parameter, which only 'path' can";
            }
            String problem = characterProblem(path, i);
            if (problem != null) {
                return problem;
            }
        }
        return path.contains("//") ? "it holds an empty segment (//)" : null;
    }

    /** What is wrong with a template, or {@code null} if nothing. */
    static String templateProblem(String template) {
        if (!template.startsWith("/")) {
            return "it does not start with /";
        }
        if (template.contains("//")) {
            return "it holds an empty segment (//)";
        }
        List<String> names = new ArrayList<>();
        String[] segments = template.substring(1).split("/", -1);
        for (int s = 0; s < segments.length; s++) {
            String segment = segments[s];
            if (segment.startsWith("{") && segment.endsWith("}")) {
                boolean catchAll = segment.startsWith("{*");
                String name = segment.substring(catchAll ? 2 : 1, segment.length() - 1);
                if (!isName(name)) {
                    return "its parameter '" + segment + "' is not " + PARAMETER_SYNTAX;
                }
                if (catchAll && s != segments.length - 1) {
                    return "its catch-all '" + segment + "' is not the last segment";
                }
                if (names.contains(name)) {
                    return "it uses the parameter name '" + name + "' twice";
                }
                names.add(name);
            } else if (segment.indexOf('{') >= 0 || segment.indexOf('}') >= 0) {
                return "its segment '" + segment + "' mixes text and a parameter (expected a whole segment as "
                        + PARAMETER_SYNTAX + ")";
            } else {
                for (int i = 0; i < segment.length(); i++) {
                    String problem = characterProblem(segment, i);
                    if (problem != null) {
                        return problem;
                    }
                }
            }
        }
        return null;
    }

    /** The parameter names of a valid template, in order; empty for a literal path. */
    static List<String> parameters(String template) {
        List<String> names = new ArrayList<>();
        int open = template.indexOf('{');
        while (open >= 0) {
            int close = template.indexOf('}', open);
            if (close < 0) {
                break;
            }
            names.add(template.substring(template.charAt(open + 1) == '*' ? open + 2 : open + 1, close));
            open = template.indexOf('{', close);
        }
        return names;
    }

    static boolean isName(String name) {
        if (name.isEmpty() || (name.charAt(0) >= '0' && name.charAt(0) <= '9')) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** RFC 3986 path characters: pchar, '/', and percent-escapes. */
    private static String characterProblem(String path, int i) {
        char c = path.charAt(i);
        boolean alphanumeric = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (alphanumeric || "/-._~!$&'()*+,;=:@".indexOf(c) >= 0) {
            return null;
        }
        if (c == '%' && i + 2 < path.length() && isHex(path.charAt(i + 1)) && isHex(path.charAt(i + 2))) {
            return null;
        }
        if (c == '?' || c == '#') {
            return "it holds a query or fragment ('" + c + "'), which routes do not match on";
        }
        return "it holds '" + c + "', which a path cannot (percent-encode it)";
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
