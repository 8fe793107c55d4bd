package io.parry.gateway.internal.reload;

import static java.util.Objects.requireNonNull;

import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.gateway.internal.config.GatewayConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the gateway reads its configuration from, each time it loads: a file, or a fixed text such
 * as the built-in demo, with the variables its placeholders are taken from. Immutable.
 */
public final class ConfigSource {
    private final String name;
    private final Path file;
    private final String yaml;
    private final Map<String, String> env;

    private ConfigSource(String name, Path file, String yaml, Map<String, String> env) {
        this.name = name;
        this.file = file;
        this.yaml = yaml;
        this.env = Map.copyOf(requireNonNull(env, "env"));
    }

    /** The configuration file, read again at each load. */
    public static ConfigSource file(Path file, Map<String, String> env) {
        requireNonNull(file, "file");
        return new ConfigSource(file.toString(), file.toAbsolutePath(), null, env);
    }

    /** A fixed configuration text; errors name it {@code name}. */
    public static ConfigSource text(String name, String yaml, Map<String, String> env) {
        return new ConfigSource(requireNonNull(name, "name"), null, requireNonNull(yaml, "yaml"), env);
    }

    /**
     * Reads and validates the configuration.
     *
     * @throws io.parry.gateway.internal.config.ConfigException if it is not valid
     * @throws java.io.UncheckedIOException if the file cannot be read
     */
    public GatewayConfig load() {
        return file != null ? ConfigLoader.load(file, env) : ConfigLoader.parse(yaml, name, env);
    }

    /** The file, absolute, if the configuration comes from one. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** The name errors and logs give. */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
