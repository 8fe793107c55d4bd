package io.parry.client.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.parry.client.ConnectionClosedException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/2 connection: many calls at once, each on a stream of its own ({@link H2Stream}),
 * at most as many as the upstream's SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113, section 6.5.2; 100
 * until it says, the RFC's recommended floor). It is handed to the pool once the upstream's first
 * SETTINGS frame arrived, so that limit is known. A GOAWAY (section 6.8) takes it out of the pool:
 * streams the upstream processed finish, the others go elsewhere. Idle, it sends a PING every
 * {@code pingInterval} and closes when the previous one got no answer. Every method runs on the
 * connection's event loop.
 */
final class H2Connection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(H2Connection.class);
    private static final int ASSUMED_MAX_STREAMS = 100;
    /**
     * The connection's receive window. A paused reader holds its stream's window (64 KiB) unread, and
     * that counts against the connection's too: with the default 64 KiB one slow reader would stall
     * every stream.
     */
    private static final int CONNECTION_WINDOW = 16 * 1024 * 1024;

    private static final int DEFAULT_WINDOW = 65_535;

    final ConnectionPool pool;
    private final ClientCall owner;
    private final long openedNanos = System.nanoTime();
    private final List<H2Stream> streams = new ArrayList<>();
    private Channel channel;
    private Http2StreamChannelBootstrap bootstrap;
    private int maxStreams = ASSUMED_MAX_STREAMS;
    private boolean ready;
    private boolean goingAway;
    private boolean closed;
    /** Streams opened or being opened. */
    private int active;

    long idleSinceNanos = System.nanoTime();
    private long lastReadNanos = System.nanoTime();
    private long pingSentNanos;

    H2Connection(ConnectionPool pool, ClientCall owner) {
        this.pool = pool;
        this.owner = owner;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.channel = ctx.channel();
        this.bootstrap = new Http2StreamChannelBootstrap(channel);
        if (channel.isActive()) {
            growConnectionWindow(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        growConnectionWindow(ctx);
        ctx.fireChannelActive();
    }

    /** The frame codec sends a WINDOW_UPDATE for stream 0 when given one without a stream. */
    private static void growConnectionWindow(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - DEFAULT_WINDOW));
    }

    /** Whether it can take another stream now. */
    boolean hasCapacity() {
        return ready && !goingAway && !closed && active < maxStreams && channel.isActive();
    }

    boolean isIdle() {
        return active == 0;
    }

    boolean isGoingAway() {
        return goingAway || closed;
    }

    boolean isTooOld(long now, long maxLifetimeNanos) {
        return maxLifetimeNanos > 0 && now - openedNanos >= maxLifetimeNanos;
    }

    /** Opens a stream for the call and starts it there. */
    void open(ClientCall call) {
        active++;
        H2Stream stream = new H2Stream(this, call);
        call.state = ClientCall.ACTIVE;
        call.connection = stream;
        bootstrap.handler(stream).open().addListener((Future<Http2StreamChannel> opened) -> {
            if (opened.isSuccess()) {
                streams.add(stream);
                stream.start();
            } else {
                active--;
                call.state = ClientCall.DONE;
                call.connection = null;
                call.fail(new ConnectionClosedException(
                        "cannot open a stream to " + pool.endpoint + ": " + opened.cause(), false, opened.cause()));
                pool.streamEnded(this);
            }
        });
    }

    /** A stream closed: its place goes to the next waiting call. */
    void streamClosed(H2Stream stream) {
        if (streams.remove(stream)) {
            active--;
            if (active == 0) {
                idleSinceNanos = System.nanoTime();
            }
            pool.streamEnded(this);
        }
    }

    /** Checks its streams' deadlines, and whether an idle connection still answers. */
    void checkDeadlines(long now, long pingIntervalNanos) {
        for (H2Stream stream : List.copyOf(streams)) {
            stream.checkDeadlines(now);
        }
        if (pingIntervalNanos == 0 || closed || now - lastReadNanos < pingIntervalNanos) {
            return;
        }
        if (pingSentNanos != 0 && now - pingSentNanos >= pingIntervalNanos) {
            log.debug("Closing the HTTP/2 connection to {}: no answer to a PING", pool.endpoint);
            close();
        } else if (pingSentNanos == 0) {
            pingSentNanos = now;
            channel.writeAndFlush(new DefaultHttp2PingFrame(now));
        }
    }

    /** Fails every call it carries (the client closes) and closes. */
    void clientClosed() {
        for (H2Stream stream : List.copyOf(streams)) {
            stream.clientClosed();
        }
        close();
    }

    void close() {
        closed = true;
        channel.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastReadNanos = System.nanoTime();
        pingSentNanos = 0;
        try {
            if (msg instanceof Http2SettingsFrame settings) {
                Long limit = settings.settings().maxConcurrentStreams();
                if (limit != null) {
                    maxStreams = (int) Math.min(Integer.MAX_VALUE, limit);
                }
                if (!ready) {
                    ready = true;
                    pool.connected(this, owner);
                } else {
                    pool.streamEnded(this); // A higher limit may serve waiting calls.
                }
            } else if (msg instanceof Http2GoAwayFrame) {
                goingAway = true;
                pool.goingAway(this);
            } else if (!(msg instanceof Http2PingFrame)) {
                log.debug("HTTP/2 connection to {} ignores {}", pool.endpoint, msg);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        if (ready) {
            pool.discard(this);
        } else {
            pool.connectFailed(
                    owner,
                    new ConnectionClosedException(
                            "the HTTP/2 connection to " + pool.endpoint + " closed before its settings arrived",
                            false,
                            null));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("HTTP/2 connection to {} failed: {}", pool.endpoint, cause.toString());
        close();
    }
}
