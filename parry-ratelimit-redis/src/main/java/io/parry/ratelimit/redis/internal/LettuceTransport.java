package io.parry.ratelimit.redis.internal;

/**
 * Chooses Lettuce's transport before Lettuce reads its choice: epoll, as Parry's own transport does by
 * default, unless the application chose with Lettuce's system properties ({@code io.lettuce.core.epoll},
 * {@code io.lettuce.core.iouring}). Left to choose, Lettuce 7.7 finds both epoll and io_uring on Parry's
 * class path and warns that it took epoll each time it asks which transport to use: at every connection,
 * and so once per event loop that asks Redis. Lettuce reads the properties once, as its providers load.
 */
public final class LettuceTransport {
    static final String EPOLL = "io.lettuce.core.epoll";
    static final String IO_URING = "io.lettuce.core.iouring";

    private LettuceTransport() {}

    /** Turns Lettuce's io_uring off unless the application set either property; call before Lettuce loads. */
    public static void chooseEpoll() {
        if (System.getProperty(EPOLL) == null && System.getProperty(IO_URING) == null) {
            System.setProperty(IO_URING, "false");
        }
    }
}
