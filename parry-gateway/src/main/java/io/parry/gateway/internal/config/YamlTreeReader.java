package io.parry.gateway.internal.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML text into a tree of {@link YamlNode}s that remember their line and column, with Jackson's
 * streaming parser; no data binding. Rejects what the gateway's files never need and would only
 * confuse: duplicate keys, aliases, several documents.
 */
final class YamlTreeReader {
    private static final YAMLFactory FACTORY = YAMLFactory.builder()
            .loaderOptions(loaderOptions())
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build();

    private static final int INDEX_SIZE = 32;

    private final Substitution source;
    private final ConfigErrors errors;
    private YAMLParser parser;

    private YamlTreeReader(Substitution source, ConfigErrors errors) {
        this.source = source;
        this.errors = errors;
    }

    /** The document's root, or {@code null} after reporting why there is none that can be used. */
    static YamlNode read(Substitution source, ConfigErrors errors) {
        return new YamlTreeReader(source, errors).read();
    }

    private YamlNode read() {
        try (YAMLParser p = FACTORY.createParser(source.text())) {
            parser = p;
            JsonToken first = parser.nextToken();
            if (first == null) {
                errors.add(
                        Location.START, "the file is empty (expected a mapping with listener, upstreams and routes)");
                return null;
            }
            YamlNode root = node(first);
            if (parser.nextToken() != null) {
                errors.add(location(parser.currentTokenLocation()), "a second YAML document (expected only one)");
            }
            return root;
        } catch (JacksonException e) {
            syntaxError(e);
            return null;
        } catch (IOException e) {
            // Reading a String cannot fail with I/O; anything else here is a parse failure.
            errors.add(Location.START, "unreadable YAML: " + e.getMessage());
            return null;
        }
    }

    private YamlNode node(JsonToken token) throws IOException {
        Location at = location(parser.currentTokenLocation());
        switch (token) {
            case START_OBJECT:
                return map(at);
            case START_ARRAY:
                return list(at);
            case VALUE_NULL:
                return new YamlScalar(null, at);
            default:
                if (parser.isCurrentAlias()) {
                    errors.add(at, "YAML aliases (*" + parser.getText() + ") are not supported; write the value out");
                }
                return new YamlScalar(parser.getText(), at);
        }
    }

    private YamlMap map(Location at) throws IOException {
        List<YamlEntry> entries = new ArrayList<>();
        // Most mappings hold a handful of keys, where a scan beats hashing; an index pays from a few dozen.
        Map<String, YamlEntry> index = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            Location keyAt = location(parser.currentTokenLocation());
            YamlEntry entry = new YamlEntry(key, keyAt, node(parser.nextToken()));
            YamlEntry first = index != null ? index.putIfAbsent(key, entry) : scan(entries, key);
            if (first != null) {
                errors.add(
                        keyAt,
                        "duplicate key '" + key + "' (first given at line "
                                + first.keyLocation().line() + ")");
                continue;
            }
            entries.add(entry);
            if (index == null && entries.size() == INDEX_SIZE) {
                index = new HashMap<>();
                for (YamlEntry indexed : entries) {
                    index.put(indexed.key(), indexed);
                }
            }
        }
        return new YamlMap(entries, at);
    }

    private static YamlEntry scan(List<YamlEntry> entries, String key) {
        for (YamlEntry entry : entries) {
            if (entry.key().equals(key)) {
                return entry;
            }
        }
        return null;
    }

    private YamlList list(Location at) throws IOException {
        List<YamlNode> items = new ArrayList<>();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            items.add(node(token));
        }
        return new YamlList(items, at);
    }

    private Location location(JsonLocation location) {
        return source.original(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
    }

    private void syntaxError(JacksonException e) {
        Throwable cause = e.getCause();
        if (cause instanceof MarkedYAMLException) {
            MarkedYAMLException yaml = (MarkedYAMLException) cause;
            Location at = yaml.getProblemMark() != null
                    ? source.original(
                            yaml.getProblemMark().getLine() + 1,
                            yaml.getProblemMark().getColumn() + 1)
                    : location(e.getLocation());
            errors.add(at, "invalid YAML: " + yaml.getProblem() + context(yaml));
        } else {
            Location at = e.getLocation() == null ? Location.START : location(e.getLocation());
            errors.add(at, "invalid YAML: " + e.getOriginalMessage());
        }
    }

    /** What the parser was in, such as {@code (while parsing a flow mapping started at line 1, column 11)}. */
    private String context(MarkedYAMLException yaml) {
        if (yaml.getContext() == null) {
            return "";
        }
        if (yaml.getContextMark() == null) {
            return " (" + yaml.getContext() + ")";
        }
        Location at = source.original(
                yaml.getContextMark().getLine() + 1, yaml.getContextMark().getColumn() + 1);
        return " (" + yaml.getContext() + " started at line " + at.line() + ", column " + at.column() + ")";
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        // Large route tables are expected; the default 3 MB limit is for untrusted input.
        options.setCodePointLimit(64 * 1024 * 1024);
        return options;
    }
}
