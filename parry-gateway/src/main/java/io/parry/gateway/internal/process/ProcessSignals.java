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
            sun.misc.SignalHandler previous = sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> action.run());
            if (previous == sun.misc.SignalHandler.SIG_IGN) {
                // The JVM keeps a hangup-type signal ignored when the process started with it ignored (nohup), and
                // reports that only through the handler it returns.
                log.warn(
                        "SIG{} is ignored by this process (started with nohup?) and the JVM keeps it so: sending it"
                                + " does nothing here",
                        name);
                return false;
            }
            return true;
        } catch (LinkageError | IllegalArgumentException | IllegalStateException e) {
            log.info("SIG{} cannot be handled here ({})", name, e.toString());
            return false;
        }
    }
}
