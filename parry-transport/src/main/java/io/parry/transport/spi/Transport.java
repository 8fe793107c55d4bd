package io.parry.transport.spi;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandle;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandle;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.parry.transport.TransportKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A resolved transport: the I/O handler for event loops and the channel classes that go with it. */
public final class Transport {
    private static final Logger log = LoggerFactory.getLogger(Transport.class);

    private final TransportKind kind;
    private final IoHandlerFactory ioHandlerFactory;
    private final Class<? extends ServerChannel> serverChannelType;
    private final Class<? extends SocketChannel> socketChannelType;
    private final Class<? extends DatagramChannel> datagramChannelType;

    private Transport(
            TransportKind kind,
            IoHandlerFactory ioHandlerFactory,
            Class<? extends ServerChannel> serverChannelType,
            Class<? extends SocketChannel> socketChannelType,
            Class<? extends DatagramChannel> datagramChannelType) {
        this.kind = kind;
        this.ioHandlerFactory = ioHandlerFactory;
        this.serverChannelType = serverChannelType;
        this.socketChannelType = socketChannelType;
        this.datagramChannelType = datagramChannelType;
    }

    /**
     * Resolves the requested kind. A native kind that cannot load falls back to NIO with a warning
     * saying why, so a server always starts.
     */
    public static Transport resolve(TransportKind requested) {
        switch (requested) {
            case IO_URING:
                if (IoUring.isAvailable()) {
                    return ioUring();
                }
                log.warn(
                        "io_uring is not available, using NIO: {}",
                        IoUring.unavailabilityCause().toString());
                return nio();
            case EPOLL:
                if (Epoll.isAvailable()) {
                    return epoll();
                }
                log.warn(
                        "epoll is not available, using NIO: {}",
                        Epoll.unavailabilityCause().toString());
                return nio();
            case NIO:
                return nio();
            default:
                return Epoll.isAvailable() ? epoll() : nio();
        }
    }

    /**
     * The transport whose channels can register with this executor, or {@code null} when it is not
     * an event loop of a known transport. Lets a client reuse the event loop it is called on.
     */
    public static Transport compatibleWith(EventExecutor executor) {
        if (!(executor instanceof IoEventLoop)) {
            return null;
        }
        IoEventLoop loop = (IoEventLoop) executor;
        if (loop.isCompatible(NioIoHandle.class)) {
            return nio();
        }
        if (loop.isCompatible(EpollIoHandle.class)) {
            return epoll();
        }
        if (loop.isCompatible(IoUringIoHandle.class)) {
            return ioUring();
        }
        return null;
    }

    private static Transport epoll() {
        return new Transport(
                TransportKind.EPOLL,
                EpollIoHandler.newFactory(),
                EpollServerSocketChannel.class,
                EpollSocketChannel.class,
                EpollDatagramChannel.class);
    }

    private static Transport ioUring() {
        return new Transport(
                TransportKind.IO_URING,
                IoUringIoHandler.newFactory(),
                IoUringServerSocketChannel.class,
                IoUringSocketChannel.class,
                IoUringDatagramChannel.class);
    }

    private static Transport nio() {
        return new Transport(
                TransportKind.NIO,
                NioIoHandler.newFactory(),
                NioServerSocketChannel.class,
                NioSocketChannel.class,
                NioDatagramChannel.class);
    }

    /** A group of {@code threads} event loops whose threads are named {@code namePrefix-N}. */
    public MultiThreadIoEventLoopGroup newEventLoopGroup(int threads, String namePrefix) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(namePrefix, false), ioHandlerFactory);
    }

    /** The kind that was chosen. */
    public TransportKind kind() {
        return kind;
    }

    /** The listening channel class. */
    public Class<? extends ServerChannel> serverChannelType() {
        return serverChannelType;
    }

    /** The connected channel class, for clients. */
    public Class<? extends SocketChannel> socketChannelType() {
        return socketChannelType;
    }

    /** The datagram channel class, for DNS queries. */
    public Class<? extends DatagramChannel> datagramChannelType() {
        return datagramChannelType;
    }
}
