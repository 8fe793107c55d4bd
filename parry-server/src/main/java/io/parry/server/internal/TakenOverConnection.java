package io.parry.server.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.parry.transport.spi.ConnectionTakeover;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection a 101 response handed over to a {@link ConnectionTakeover}: no longer HTTP/1.1, so no
 * longer checked against the HTTP deadlines, but still counted by the server until it closes, and
 * told when the server stops. Sits in its event loop's {@link ConnectionSweeper}, touched only there.
 */
final class TakenOverConnection implements ChannelFutureListener {
    private static final Logger log = LoggerFactory.getLogger(TakenOverConnection.class);

    private final Channel channel;
    private final ConnectionTakeover takeover;
    private final ConnectionSweeper sweeper;
    private final ConnectionRegistry registry;
    /** Links in the sweeper's list of taken-over connections. */
    TakenOverConnection previous;

    TakenOverConnection next;

    TakenOverConnection(
            Channel channel, ConnectionTakeover takeover, ConnectionSweeper sweeper, ConnectionRegistry registry) {
        this.channel = channel;
        this.takeover = takeover;
        this.sweeper = sweeper;
        this.registry = registry;
    }

    /** Joins the sweeper's list until the channel closes. */
    void register() {
        sweeper.add(this);
        channel.closeFuture().addListener(this);
    }

    /** The channel closed: the server counts the connection no more. */
    @Override
    public void operationComplete(ChannelFuture closed) {
        sweeper.remove(this);
        registry.closed();
    }

    /** The server began a graceful stop. */
    void drain() {
        try {
            takeover.drain();
        } catch (RuntimeException e) {
            log.warn("{} failed to drain; closing", channel, e);
            channel.close();
        }
    }

    /** The server's stop deadline passed. */
    void forceClose() {
        try {
            takeover.forceClose(channel);
        } catch (RuntimeException e) {
            log.warn("{} failed to close; closing it", channel, e);
        }
        channel.close();
    }
}
