package io.parry.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Cuts one side's bytes into WebSocket frames for the relay without copying them: a data, ping or
 * pong frame leaves as a retained slice of the received bytes, its header included, to be written to
 * the other side as it is (see {@link RelayFrames}); a close frame leaves as a {@link
 * CloseWebSocketFrame}, unmasked and checked, since the relay itself takes part in the close
 * handshake.
 *
 * <p>A client's frames are masked and must stay masked towards the upstream (RFC 6455, section 5.3),
 * with a key the client did not choose, or a hostile client could put bytes of its choice on the
 * upstream hop (section 10.3): the key is replaced in place, the payload XORed once with the old key
 * and the new one together. An upstream's frames are unmasked, as the client must get them, and pass
 * as they came.
 *
 * <p>A frame breaking section 5 (its masking, a reserved opcode, a fragmented or long control frame, a
 * continuation out of place, a length not minimally encoded) is answered with a close frame with
 * {@code 1002}, a frame over the size limit with {@code 1009}; the connection then closes and what
 * follows is dropped, as Netty's own decoder does.
 */
final class RelayFrameDecoder extends ByteToMessageDecoder {
    private static final int CLOSE = 8;
    private static final int MAX_CONTROL_PAYLOAD = 125;

    private final boolean fromClient;
    private final int maxFrameSize;
    private boolean inMessage;
    private boolean failed;

    RelayFrameDecoder(boolean fromClient, int maxFrameSize) {
        this.fromClient = fromClient;
        this.maxFrameSize = maxFrameSize;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 2) {
            return;
        }
        int first = in.getUnsignedByte(start);
        int second = in.getUnsignedByte(start + 1);
        int header = RelayFrames.headerLength(second);
        if (readable < header) {
            return;
        }
        long length = RelayFrames.payloadLength(in, start);
        check(ctx, in, first, second, length);
        long total = header + length;
        if (readable < total) {
            return;
        }
        int opcode = first & 0x0F;
        if (opcode < CLOSE) {
            inMessage = (first & 0x80) == 0;
        }
        if (opcode == CLOSE) {
            out.add(closeFrame(ctx, in, header, (int) length));
            return;
        }
        ByteBuf frame = in.readRetainedSlice((int) total);
        if (fromClient) {
            remask(frame, header - 4, (int) length);
        }
        out.add(frame);
    }

    /** RFC 6455, sections 5.2 to 5.5: what a frame's header alone can break. */
    private void check(ChannelHandlerContext ctx, ByteBuf in, int first, int second, long length) {
        int opcode = first & 0x0F;
        boolean fin = (first & 0x80) != 0;
        if (((second & 0x80) != 0) != fromClient) {
            fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, fromClient ? "unmasked frame" : "masked frame");
        } else if ((opcode > 2 && opcode < CLOSE) || opcode > 10) {
            fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "reserved opcode " + opcode);
        } else if (!RelayFrames.isMinimalLength(second, length)) {
            fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "frame length not minimally encoded");
        } else if (opcode >= CLOSE && (!fin || length > MAX_CONTROL_PAYLOAD)) {
            fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "fragmented or too long control frame");
        } else if (opcode == 0 && !inMessage) {
            fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "continuation frame outside a message");
        } else if ((opcode == 1 || opcode == 2) && inMessage) {
            fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "data frame inside a fragmented message");
        } else if (length > maxFrameSize) {
            fail(ctx, in, WebSocketCloseStatus.MESSAGE_TOO_BIG, "frame too big");
        }
    }

    /** The close frame unmasked into a buffer of its own, its code and reason checked (section 5.5.1). */
    private CloseWebSocketFrame closeFrame(ChannelHandlerContext ctx, ByteBuf in, int header, int length) {
        int start = in.readerIndex();
        int key = fromClient ? in.getInt(start + header - 4) : 0;
        ByteBuf payload = ctx.alloc().buffer(length);
        for (int i = 0; i < length; i++) {
            payload.writeByte(in.getByte(start + header + i) ^ (key >>> (24 - 8 * (i & 3))));
        }
        in.skipBytes(header + length);
        WebSocketCloseStatus invalid = invalidClose(payload);
        if (invalid != null) {
            payload.release();
            fail(ctx, in, invalid, "invalid close frame");
        }
        return new CloseWebSocketFrame(true, 0, payload);
    }

    private static WebSocketCloseStatus invalidClose(ByteBuf payload) {
        int length = payload.readableBytes();
        if (length == 0) {
            return null;
        }
        if (length == 1 || !WebSocketCloseStatus.isValidStatusCode(payload.getUnsignedShort(0))) {
            return WebSocketCloseStatus.PROTOCOL_ERROR;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().decode(payload.nioBuffer(2, length - 2));
            return null;
        } catch (CharacterCodingException e) {
            return WebSocketCloseStatus.INVALID_PAYLOAD_DATA;
        }
    }

    /**
     * Gives the frame a mask key of the gateway's: the payload, masked with the client's key, is XORed
     * with both keys at once (four bytes at a time), which leaves it masked with the new key alone.
     */
    private static void remask(ByteBuf frame, int keyAt, int length) {
        int key = ThreadLocalRandom.current().nextInt();
        int change = frame.getInt(keyAt) ^ key;
        frame.setInt(keyAt, key);
        int at = keyAt + 4;
        int words = length & ~3;
        for (int i = 0; i < words; i += 4) {
            frame.setInt(at + i, frame.getInt(at + i) ^ change);
        }
        for (int i = words; i < length; i++) {
            frame.setByte(at + i, frame.getByte(at + i) ^ (change >>> (24 - 8 * (i & 3))));
        }
    }

    /** Sends the close frame for the violation, closes once it is written, and fails the read. */
    private void fail(ChannelHandlerContext ctx, ByteBuf in, WebSocketCloseStatus status, String reason) {
        failed = true;
        in.skipBytes(in.readableBytes());
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new CloseWebSocketFrame(status, reason)).addListener(ChannelFutureListener.CLOSE);
        }
        throw new CorruptedWebSocketFrameException(status, reason);
    }
}
