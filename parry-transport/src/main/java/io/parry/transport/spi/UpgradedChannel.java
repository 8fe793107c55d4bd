package io.parry.transport.spi;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import java.util.function.Consumer;

/**
 * A connection that switched protocols after a {@code 101} response (RFC 9110, section 15.2.2): its
 * HTTP handlers are gone, reading is paused, and bytes that arrived right after the {@code 101} are held.
 * The body of a client's {@code 101} response implements it; whoever receives it owns the connection
 * and must take it over or {@link #close} it. A body subscribed to (read as an ordinary empty body) before being taken over
 * closes the connection, since nobody will.
 */
public interface UpgradedChannel {
    /** The connection's channel. */
    Channel channel();

    /**
     * Takes the connection over, on its event loop: {@code install} adds the handlers of the new
     * protocol to the end of the pipeline, then the held bytes (and the close, if the peer closed
     * meanwhile) pass through them. Reading stays paused: the new owner resumes it. At most once.
     *
     * @throws IllegalStateException if the connection was taken over or closed before
     */
    void takeOver(Consumer<ChannelPipeline> install);

    /** Closes the connection instead of taking it over, releasing the bytes held; any thread, more than once. */
    void close();
}
