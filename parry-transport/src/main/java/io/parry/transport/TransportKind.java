package io.parry.transport;

/**
 * Which socket transport the event loops use. {@link #AUTO} picks native epoll on Linux when it
 * loads and NIO otherwise; io_uring is used only when asked for, because it depends on the kernel
 * and on seccomp policies that containers often tighten, and because Netty 4.2.18 on Linux 6.18 has
 * been seen to leave a closed connection's socket open (see this module's README).
 */
public enum TransportKind {
    /** Epoll when available, otherwise NIO. */
    AUTO,
    /** Linux epoll through Netty's native transport. */
    EPOLL,
    /** Linux io_uring through Netty's native transport. */
    IO_URING,
    /** The JDK's NIO selector, available everywhere. */
    NIO
}
