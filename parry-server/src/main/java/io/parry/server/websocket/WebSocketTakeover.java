package io.parry.server.websocket;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.parry.transport.spi.ConnectionTakeover;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of an accepted handshake's 101 response: once the response has left, puts the WebSocket
 * frame codec (and the permessage-deflate codec, when negotiated) and the session on the connection.
 */
final class WebSocketTakeover implements ConnectionTakeover {
    private static final Logger log = LoggerFactory.getLogger(WebSocketTakeover.class);

    private final SessionSetup setup;
    private WebSocketConnection connection;

    WebSocketTakeover(SessionSetup setup) {
        this.setup = setup;
    }

    @Override
    public void takeOver(Channel channel) {
        WebSocketServerExtension extension = setup.extension();
        // The frame decoder's violations reach the session as exceptions, so one place sends the close
        // frame and counts it; text is checked for UTF-8 there too, after inflating.
        WebSocketDecoderConfig config = WebSocketDecoderConfig.newBuilder()
                .maxFramePayloadLength(setup.options().maxFrameSize())
                .expectMaskedFrames(true)
                .allowMaskMismatch(false)
                .allowExtensions(extension != null)
                .closeOnProtocolViolation(false)
                .withUTF8Validator(false)
                .build();
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast("ws-encoder", new WebSocket13FrameEncoder(false));
        pipeline.addLast("ws-decoder", new WebSocket13FrameDecoder(config));
        if (extension != null) {
            pipeline.addLast(
                    "ws-deflate-encoder",
                    setup.storedBlocks() ? new StoredDeflateEncoder() : extension.newExtensionEncoder());
            pipeline.addLast("ws-deflate-decoder", extension.newExtensionDecoder());
        }
        connection = new WebSocketConnection(setup, channel);
        pipeline.addLast("ws-session", connection);
        connection.open();
    }

    @Override
    public void abandoned(Throwable cause) {
        log.debug("WebSocket handshake {} not completed: {}", setup.id(), cause.toString());
    }

    @Override
    public void drain() {
        if (connection != null) {
            connection.drain();
        }
    }
}
