package io.parry.gateway.internal.config;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a gateway configuration file: substitutes {@code ${NAME}} and {@code ${NAME:default}}
 * placeholders from the environment, parses the YAML, and validates every setting, reporting all the
 * problems at once with their line and column.
 *
 * <pre>{@code
 * GatewayConfig config = ConfigLoader.load(Path.of("gateway.yaml"));
 * }</pre>
 *
 * <p>Stateless and thread-safe; loading never starts anything.
 */
public final class ConfigLoader {
    /** The classpath resource holding the built-in demo configuration. */
    public static final String DEMO_RESOURCE = "/io/parry/gateway/demo.yaml";

    private ConfigLoader() {}

    /**
     * The configuration in this file, with placeholders taken from the process environment.
     *
     * @throws ConfigException if the file is not a valid configuration
     * @throws UncheckedIOException if it cannot be read
     */
    public static GatewayConfig load(Path file) {
        return load(file, System.getenv());
    }

    /**
     * The configuration in this file, with placeholders taken from {@code env}.
     *
     * @throws ConfigException if the file is not a valid configuration
     * @throws UncheckedIOException if it cannot be read
     */
    public static GatewayConfig load(Path file, Map<String, String> env) {
        requireNonNull(file, "file");
        requireNonNull(env, "env");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read configuration file " + file + ": " + reason(e), e);
        }
        // Editors on Windows may start UTF-8 files with a byte order mark, which is no part of the YAML.
        return parse(text.startsWith("\uFEFF") ? text.substring(1) : text, file.toString(), env, true);
    }

    /**
     * The configuration in this text. Unlike {@link #load(Path, Map)}, it does not load the listener's certificate
     * files the text names (they are loaded when the listener starts).
     *
     * @param yaml the file's content
     * @param fileName the name errors give as their file
     * @param env the variables placeholders are taken from
     * @throws ConfigException if the text is not a valid configuration
     */
    public static GatewayConfig parse(String yaml, String fileName, Map<String, String> env) {
        return parse(yaml, fileName, env, false);
    }

    private static GatewayConfig parse(String yaml, String fileName, Map<String, String> env, boolean loadFiles) {
        requireNonNull(yaml, "yaml");
        requireNonNull(fileName, "fileName");
        requireNonNull(env, "env");
        ConfigErrors errors = new ConfigErrors(fileName);
        Substitution substitution = Substitution.apply(yaml, env, errors);
        YamlNode root = YamlTreeReader.read(substitution, errors);
        GatewayConfig config = root == null ? null : new GatewayConfigReader(errors, env, loadFiles).read(root);
        errors.throwIfAny();
        return config;
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text";
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** The built-in demo configuration's YAML; it needs {@code DEMO_SERVICE_PORT} in the environment it is parsed with. */
    public static String demoYaml() {
        try (InputStream in = ConfigLoader.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + DEMO_RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
