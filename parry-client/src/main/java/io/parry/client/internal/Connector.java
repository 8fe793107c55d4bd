package io.parry.client.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.ConnectTimeoutException;
import io.parry.client.ConnectionClosedException;
import io.parry.client.Endpoint;
import io.parry.client.LocalResourceException;
import io.parry.client.UpstreamConnectException;
import io.parry.transport.TransportKind;
import io.parry.transport.spi.LocalResources;
import io.parry.transport.spi.ReceivedFields;
import io.parry.transport.spi.Transport;
import io.parry.transport.spi.tls.TlsWriteBatch;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Opens connections on one event loop: resolves the endpoint's name (IP literals skip resolution),
 * then connects a channel of the loop's transport. An HTTP/1.1 connection has a {@link
 * ResponseDecoder} and a {@link ClientConnection} in its pipeline; the connection writes requests as
 * bytes itself ({@link RequestHeads}). An HTTP/2 one has Netty's frame codec and multiplexer and an
 * {@link H2Connection}. To a secure endpoint, TLS comes first, and ALPN decides between the two when
 * the client offers HTTP/2. Confined to its event loop.
 */
final class Connector {
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(32 * 1024, 64 * 1024);
    /** Push is off, so a stream the server opens is a protocol error; it is closed at once. */
    private static final ChannelInitializer<Channel> REFUSE_STREAMS = new ChannelInitializer<>() {
        @Override
        protected void initChannel(Channel stream) {
            stream.close();
        }
    };

    private final EventLoop loop;
    private final Transport transport;
    private final ChannelFactory<? extends Channel> channels;
    private final HttpDecoderConfig decoderConfig;
    private final List<InetSocketAddress> nameServers;
    private final ClientTls tls;
    private final boolean http2;
    private final int maxResponseHeadersSize;
    private ClientResolver resolver;

    Connector(EventLoop loop, Transport transport, ClientOptions options, ClientTls tls) {
        this.loop = loop;
        this.tls = tls;
        this.http2 = options.protocol() != ClientProtocol.HTTP1;
        this.maxResponseHeadersSize = options.maxResponseHeadersSize();
        this.transport = transport;
        this.channels = new ReflectiveChannelFactory<>(transport.socketChannelType());
        this.nameServers = options.nameServers();
        this.decoderConfig = new HttpDecoderConfig()
                .setMaxInitialLineLength(options.maxInitialLineLength())
                .setMaxHeaderSize(options.maxResponseHeadersSize())
                .setMaxChunkSize(16 * 1024)
                // Parry's HttpHeaders validates every received field when the head is converted.
                .setValidateHeaders(false)
                .setHeadersFactory(ReceivedFields.FACTORY)
                .setTrailersFactory(ReceivedFields.FACTORY)
                .setAllowDuplicateContentLengths(false);
    }

    /** Opens a connection for the pool; the pool hears of it through {@code connected} or {@code connectFailed}. */
    void open(ConnectionPool pool, ClientCall owner) {
        Endpoint endpoint = pool.endpoint;
        Duration timeout = owner.timeouts.connect();
        InetAddress literal = NetUtil.createInetAddressFromIpAddressString(endpoint.host());
        if (literal != null) {
            connect(pool, owner, new InetSocketAddress(literal, endpoint.port()), timeout, timeout);
            return;
        }
        resolveThenConnect(pool, owner, timeout);
    }

    /**
     * The connect timeout covers resolution too: a name server that does not answer would otherwise
     * hold the call for the resolver's own timeouts, several seconds per server and query.
     */
    private void resolveThenConnect(ConnectionPool pool, ClientCall owner, Duration timeout) {
        Endpoint endpoint = pool.endpoint;
        long start = System.nanoTime();
        Future<InetAddress> resolved = resolver().resolve(endpoint.host());
        ScheduledFuture<?> deadline = timeout.isZero()
                ? null
                : loop.schedule(() -> resolved.cancel(false), Durations.nanos(timeout), TimeUnit.NANOSECONDS);
        resolved.addListener(done -> {
            if (deadline != null) {
                deadline.cancel(false);
            }
            if (done.isSuccess()) {
                Duration left = timeout.isZero() ? timeout : remaining(timeout, start);
                connect(pool, owner, new InetSocketAddress(resolved.getNow(), endpoint.port()), timeout, left);
            } else if (done.isCancelled()) {
                pool.connectFailed(owner, new ConnectTimeoutException(endpoint, timeout));
            } else {
                pool.connectFailed(owner, new UpstreamConnectException(endpoint, done.cause()));
            }
        });
    }

    /** What is left of the timeout; never zero, which would mean none. */
    private static Duration remaining(Duration timeout, long start) {
        long left = Durations.nanos(timeout) - (System.nanoTime() - start);
        return Duration.ofNanos(Math.max(1, left));
    }

    void close() {
        if (resolver != null) {
            resolver.close();
            resolver = null;
        }
    }

    /** Connects within {@code left}, which is what resolution left of {@code timeout}. */
    private void connect(
            ConnectionPool pool, ClientCall owner, InetSocketAddress address, Duration timeout, Duration left) {
        if (pool.isClosed()) {
            pool.connectFailed(owner, new ConnectionClosedException("the client was closed", false, null));
            return;
        }
        Channel channel;
        try {
            channel = channels.newChannel();
        } catch (RuntimeException e) {
            // The socket itself could not be made (out of file descriptors, say): the pool must hear of
            // it like any failed connect, or the connect it counted would be held for ever.
            pool.connectFailed(owner, new LocalResourceException(pool.endpoint, e));
            return;
        }
        channel.config().setOption(ChannelOption.TCP_NODELAY, true);
        channel.config().setOption(ChannelOption.SO_KEEPALIVE, true);
        channel.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK);
        channel.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis(left));
        Endpoint endpoint = pool.endpoint;
        ClientConnection connection = null;
        if (endpoint.secure()) {
            try {
                SslHandler handler = tls.newHandler(channel.alloc(), endpoint);
                if (!timeout.isZero()) {
                    handler.setHandshakeTimeout(Durations.nanos(timeout), TimeUnit.NANOSECONDS);
                }
                channel.pipeline().addLast("tls", handler);
            } catch (RuntimeException e) {
                pool.connectFailed(owner, new UpstreamConnectException(endpoint, e));
                return;
            }
            channel.pipeline().addLast("negotiation", new Negotiation(pool, owner));
        } else if (http2) {
            addHttp2(channel, pool, owner);
        } else {
            connection = addHttp1(channel, pool);
        }
        ClientConnection http1 = connection;
        loop.register(channel).addListener((ChannelFuture registered) -> {
            if (!registered.isSuccess()) {
                channel.close();
                pool.connectFailed(owner, failure(pool.endpoint, timeout, registered.cause()));
                return;
            }
            channel.connect(address).addListener((ChannelFuture connected) -> {
                if (!connected.isSuccess()) {
                    channel.close();
                    pool.connectFailed(owner, failure(pool.endpoint, timeout, connected.cause()));
                } else if (http1 != null) {
                    handOver(pool, http1, owner);
                } // An HTTP/2 connection is handed over when its settings arrive; TLS, once negotiated.
            });
        });
    }

    private ClientConnection addHttp1(Channel channel, ConnectionPool pool) {
        ResponseDecoder decoder = new ResponseDecoder(decoderConfig);
        ClientConnection connection = new ClientConnection(pool, decoder);
        channel.pipeline().addLast("decoder", decoder);
        channel.pipeline().addLast("connection", connection);
        return connection;
    }

    /**
     * Netty's frame codec with server push off (RFC 9113, section 8.4) and the response header limit
     * as SETTINGS_MAX_HEADER_LIST_SIZE; streams the server might open are closed at once.
     */
    private void addHttp2(Channel channel, ConnectionPool pool, ClientCall owner) {
        Http2Settings settings =
                Http2Settings.defaultSettings().pushEnabled(false).maxHeaderListSize(maxResponseHeadersSize);
        channel.pipeline()
                .addLast(
                        "h2",
                        Http2FrameCodecBuilder.forClient()
                                .initialSettings(settings)
                                .build());
        channel.pipeline().addLast("streams", new Http2MultiplexHandler(REFUSE_STREAMS));
        channel.pipeline().addLast("connection", new H2Connection(pool, owner));
    }

    /**
     * Installs HTTP/2 or HTTP/1.1 after the TLS handshake, as ALPN chose (RFC 7301), behind a {@link TlsWriteBatch}
     * on OpenSSL: an HTTP/2 connection's flush carries several streams' frames, each a buffer with a promise the
     * {@code SslHandler} would otherwise give a listener of its own.
     */
    final class Negotiation extends ApplicationProtocolNegotiationHandler {
        private final ConnectionPool pool;
        private final ClientCall owner;

        Negotiation(ConnectionPool pool, ClientCall owner) {
            super(ApplicationProtocolNames.HTTP_1_1);
            this.pool = pool;
            this.owner = owner;
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            TlsWriteBatch.addAfter(ctx.pipeline().context(SslHandler.class));
            if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                addHttp2(ctx.channel(), pool, owner);
                return;
            }
            ClientConnection connection = addHttp1(ctx.channel(), pool);
            if (http2) {
                pool.negotiatedHttp1();
            }
            handOver(pool, connection, owner);
        }

        @Override
        protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
            Duration timeout = owner.timeouts.connect();
            pool.connectFailed(
                    owner,
                    cause instanceof SslHandshakeTimeoutException
                            ? new ConnectTimeoutException(pool.endpoint, timeout)
                            : new UpstreamConnectException(pool.endpoint, cause));
        }
    }

    /**
     * Netty 4.2.18's io_uring channel, closed inside its connect listener while a write is in flight,
     * never closes its socket: the upstream never sees the end of the connection. The first exchange
     * may do just that (a request body that fails at once), so on io_uring the pool hears of the new
     * connection in a task of its own, after the connect listener has returned.
     */
    private void handOver(ConnectionPool pool, ClientConnection connection, ClientCall owner) {
        if (transport.kind() == TransportKind.IO_URING) {
            loop.execute(() -> pool.connected(connection, owner));
        } else {
            pool.connected(connection, owner);
        }
    }

    private ClientResolver resolver() {
        if (resolver == null) {
            resolver = new ClientResolver(loop, transport, nameServers);
        }
        return resolver;
    }

    /**
     * No local port left ({@code EADDRNOTAVAIL}) is the gateway's own shortage, as is no descriptor; on
     * epoll and io_uring it comes as a plain connect failure, told apart only by its error number.
     */
    static RuntimeException failure(Endpoint endpoint, Duration timeout, Throwable cause) {
        if (cause instanceof io.netty.channel.ConnectTimeoutException) {
            return new ConnectTimeoutException(endpoint, timeout);
        }
        if (LocalResources.isOutOfLocalPorts(cause) || LocalResources.isOutOfFileDescriptors(cause)) {
            return new LocalResourceException(endpoint, cause);
        }
        return new UpstreamConnectException(endpoint, cause);
    }

    /** Netty reads zero as no timeout, so a sub-millisecond timeout rounds up rather than away. */
    private static int connectTimeoutMillis(Duration timeout) {
        if (timeout.isZero()) {
            return 0;
        }
        long millis = Durations.nanos(timeout) / 1_000_000;
        return millis < 1 ? 1 : (int) Math.min(Integer.MAX_VALUE, millis);
    }
}
