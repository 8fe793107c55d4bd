package io.parry.gateway.internal.process;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs actions when the process receives a signal, through {@code sun.misc.Signal} from the {@code
 * jdk.unsupported} module. Where that is unavailable (no such module, a platform without the signal,
 * or a JVM run with {@code -Xrs}) installing does nothing but log and report false, so the caller can
 * fall back: the admin API and the file watcher still reload, and a shutdown hook still drains.
 */
public final class ProcessSignals {
    private static final Logger log = LoggerFactory.getLogger(ProcessSignals.class);

    private ProcessSignals() {}

    /**
     * Replaces the JVM's handling of the signal with the action, which runs on the JVM's signal thread
     * and must return quickly.
     *
     * @param name the signal's name without {@code SIG}, such as {@code HUP} or {@code TERM}
     * @return whether the signal now runs the action
     */
    public static boolean install(String name, Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> action.run());
            return true;
        } catch (LinkageError | IllegalArgumentException | IllegalStateException e) {
            log.info("SIG{} cannot be handled here ({})", name, e.toString());
            return false;
        }
    }
}
