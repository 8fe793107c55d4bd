package io.parry.openapi.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes a JSON tree as block-style YAML 1.2: keys and strings double-quoted with JSON's escapes
 * (which YAML reads the same), so no value is ever taken for a number, a boolean or a comment.
 */
public final class YamlText {
    private YamlText() {}

    public static String of(JsonNode node) {
        StringBuilder out = new StringBuilder();
        block(node, 0, out);
        return out.toString();
    }

    private static void block(JsonNode node, int indent, StringBuilder out) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                pad(out, indent).append(quote(field.getKey())).append(':');
                value(field.getValue(), indent, out);
            }
        } else {
            for (JsonNode item : node) {
                pad(out, indent).append('-');
                value(item, indent, out);
            }
        }
    }

    private static void value(JsonNode value, int indent, StringBuilder out) {
        if (value.isContainerNode() && !value.isEmpty()) {
            out.append('\n');
            block(value, indent + 2, out);
        } else {
            out.append(' ').append(scalar(value)).append('\n');
        }
    }

    private static String scalar(JsonNode value) {
        if (value.isObject()) {
            return "{}";
        }
        if (value.isArray()) {
            return "[]";
        }
        return value.isTextual() ? quote(value.asText()) : value.toString();
    }

    private static String quote(String text) {
        return new com.fasterxml.jackson.databind.node.TextNode(text).toString();
    }

    private static StringBuilder pad(StringBuilder out, int indent) {
        return out.append(" ".repeat(indent));
    }
}
