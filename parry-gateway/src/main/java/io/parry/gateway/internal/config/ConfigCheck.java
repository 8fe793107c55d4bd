package io.parry.gateway.internal.config;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Validates a configuration file and reports the result, like {@code nginx -t}: what
 * {@code --check config.yaml} runs. Starts nothing.
 */
public final class ConfigCheck {
    /** The file is a valid configuration. */
    public static final int OK = 0;
    /** The file was read but is not a valid configuration. */
    public static final int INVALID = 1;
    /** The file could not be read. */
    public static final int UNREADABLE = 2;

    private ConfigCheck() {}

    /**
     * Checks the file, printing {@code configuration file <file> is ok} to {@code out}, or each error as
     * {@code file:line:column: message} to {@code err}.
     *
     * @param env the variables placeholders are taken from
     * @return the process exit code: {@link #OK}, {@link #INVALID} or {@link #UNREADABLE}
     */
    public static int run(Path file, Map<String, String> env, PrintStream out, PrintStream err) {
        requireNonNull(file, "file");
        requireNonNull(env, "env");
        requireNonNull(out, "out");
        requireNonNull(err, "err");
        try {
            ConfigLoader.load(file, env);
            out.println("configuration file " + file + " is ok");
            return OK;
        } catch (ConfigException e) {
            for (ConfigError error : e.errors()) {
                err.println(error);
            }
            err.println("configuration file " + file + " is invalid: "
                    + (e.errors().size() == 1 ? "1 error" : e.errors().size() + " errors"));
            return INVALID;
        } catch (UncheckedIOException e) {
            err.println(e.getMessage());
            return UNREADABLE;
        }
    }
}
