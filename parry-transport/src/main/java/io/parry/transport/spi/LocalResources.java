package io.parry.transport.spi;

import io.netty.channel.unix.Errors;
import java.net.BindException;
import java.net.ConnectException;

/**
 * Tells a socket call that failed for want of this process's or host's own resources from one that
 * failed because of its peer: no file descriptor left ({@code EMFILE}, {@code ENFILE}), or no local
 * port left for a connection ({@code EADDRNOTAVAIL}).
 *
 * <p>Each transport reports these differently. NIO throws the JDK's exceptions ({@code
 * BindException} for {@code EADDRNOTAVAIL}); epoll and io_uring throw Netty's, which keep the error
 * number for a failed read or accept but only in the message of a failed connect. Netty then wraps a
 * connect's failure with the remote address, so the whole chain of causes is read. Linux numbers are
 * used: epoll and io_uring exist only there.
 */
public final class LocalResources {
    private static final int EMFILE = 24;
    private static final int ENFILE = 23;
    private static final String NO_LOCAL_PORT = "error(-99)"; // EADDRNOTAVAIL, as Netty formats it.
    private static final String OUT_OF_FILES = "Too many open files";

    private LocalResources() {}

    /** Whether this failure, or one of its causes, is a process or host out of file descriptors. */
    public static boolean isOutOfFileDescriptors(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (cause instanceof Errors.NativeIoException failed) {
                int errno = -failed.expectedErr();
                if (errno == EMFILE || errno == ENFILE) {
                    return true;
                }
            } else if (cause.getMessage() != null && cause.getMessage().contains(OUT_OF_FILES)) {
                return true;
            }
        }
        return false;
    }

    /** Whether this connect failure, or one of its causes, is the host out of local ports. */
    public static boolean isOutOfLocalPorts(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (cause instanceof BindException) {
                return true; // The JDK's EADDRNOTAVAIL (and EADDRINUSE) on connect.
            }
            if (cause instanceof ConnectException
                    && cause.getMessage() != null
                    && cause.getMessage().contains(NO_LOCAL_PORT)) {
                return true;
            }
        }
        return false;
    }

    private static Throwable next(Throwable cause) {
        Throwable next = cause.getCause();
        return next == cause ? null : next;
    }
}
