package io.parry.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
    private static final String FRAME_TOO_BIG = "frame too big";

    private final boolean fromClient;
    private final int maxFrameSize;
    private boolean inMessage;
    private boolean failed;
    /** Whether a read of this batch went to the cumulating decoder. */
    private boolean cumulated;

    RelayFrameDecoder(boolean fromClient, int maxFrameSize) {
        this.fromClient = fromClient;
        this.maxFrameSize = maxFrameSize;
    }

    /**
     * A read holding one whole data, ping or pong frame and nothing before it, the usual case for small
     * messages, goes on as the read buffer itself: no slice, no cumulation. Anything else is cut by
     * {@link #decode}.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf in && !failed && !internalBuffer().isReadable()) {
            int header = oneFrameHeader(in);
            if (header > 0) {
                if (fromClient) {
                    remask(in, in.readerIndex() + header - 4, in.readableBytes() - header);
                }
                ctx.fireChannelRead(in);
                return;
            }
        }
        cumulated = true;
        super.channelRead(ctx, msg);
    }

    /** A batch of reads that all took the short way has nothing for the cumulating decoder to finish. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (cumulated) {
            cumulated = false;
            super.channelReadComplete(ctx);
        } else {
            ctx.fireChannelReadComplete();
        }
    }

    /** The header's length if the buffer is exactly one valid frame other than a close, else 0. */
    private int oneFrameHeader(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 2) {
            return 0;
        }
        int first = in.getUnsignedByte(start);
        int second = in.getUnsignedByte(start + 1);
        int header = RelayFrames.headerLength(second);
        if (readable < header || (first & 0x0F) == CLOSE) {
            return 0;
        }
        long length = RelayFrames.payloadLength(in, start);
        if (header + length != readable || violation(first, second, length) != null) {
            return 0;
        }
        if ((first & 0x0F) < CLOSE) {
            inMessage = (first & 0x80) == 0;
        }
        return header;
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
        String violation = violation(first, second, length);
        if (violation != null) {
            boolean tooBig = violation.equals(FRAME_TOO_BIG);
            fail(
                    ctx,
                    in,
                    tooBig ? WebSocketCloseStatus.MESSAGE_TOO_BIG : WebSocketCloseStatus.PROTOCOL_ERROR,
                    violation);
        }
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
        if (fromClient) {
            remask(in, start + header - 4, (int) length);
        }
        out.add(in.readRetainedSlice((int) total));
    }

    /**
     * RFC 6455, sections 5.2 to 5.5: what a frame's header alone can break, or null if nothing; {@link
     * #FRAME_TOO_BIG} is answered with {@code 1009}, the rest with {@code 1002}.
     */
    private String violation(int first, int second, long length) {
        int opcode = first & 0x0F;
        boolean fin = (first & 0x80) != 0;
        if (((second & 0x80) != 0) != fromClient) {
            return fromClient ? "unmasked frame" : "masked frame";
        } else if ((opcode > 2 && opcode < CLOSE) || opcode > 10) {
            return "reserved opcode " + opcode;
        } else if (!RelayFrames.isMinimalLength(second, length)) {
            return "frame length not minimally encoded";
        } else if (opcode >= CLOSE && (!fin || length > MAX_CONTROL_PAYLOAD)) {
            return "fragmented or too long control frame";
        } else if (opcode == 0 && !inMessage) {
            return "continuation frame outside a message";
        } else if ((opcode == 1 || opcode == 2) && inMessage) {
            return "data frame inside a fragmented message";
        } else if (length > maxFrameSize) {
            return FRAME_TOO_BIG;
        }
        return null;
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
     * Gives the frame whose mask key lies at {@code keyAt} a key of the gateway's: the payload, masked
     * with the client's key, is XORed with both keys at once, which leaves it masked with the new key
     * alone. It works on the received buffer's NIO view, eight bytes at a time: a slice's accessors
     * would check its bounds and its parent's reference count for every word.
     */
    private static void remask(ByteBuf in, int keyAt, int length) {
        int key = ThreadLocalRandom.current().nextInt();
        int change = in.getInt(keyAt) ^ key;
        in.setInt(keyAt, key);
        if (in.nioBufferCount() != 1) {
            remaskBytes(in, keyAt + 4, 0, length, change);
            return;
        }
        ByteBuffer payload = in.internalNioBuffer(keyAt + 4, length);
        int at = payload.position();
        long changes = ((long) change << 32) | (change & 0xFFFFFFFFL);
        if (payload.order() == ByteOrder.LITTLE_ENDIAN) {
            changes = Long.reverseBytes(changes);
        }
        int longs = length & ~7;
        for (int i = 0; i < longs; i += 8) {
            payload.putLong(at + i, payload.getLong(at + i) ^ changes);
        }
        remaskBytes(in, keyAt + 4, longs, length, change);
    }

    /** XORs the payload's bytes {@code from} to {@code to} with the change of key, one at a time. */
    private static void remaskBytes(ByteBuf in, int payloadAt, int from, int to, int change) {
        for (int i = from; i < to; i++) {
            in.setByte(payloadAt + i, in.getByte(payloadAt + i) ^ (change >>> (24 - 8 * (i & 3))));
        }
    }

    /** Sends the close frame for the violation, closes once it is written, and fails the read. */
    private void fail(ChannelHandlerContext ctx, ByteBuf in, WebSocketCloseStatus status, String reason) {
        failed = true;
        in.skipBytes(in.readableBytes());
        if (ctx.channel().isActive()) {
            // From the pipeline's tail, through the encoder the relay's own writes pass by.
            ctx.channel()
                    .writeAndFlush(new CloseWebSocketFrame(status, reason))
                    .addListener(ChannelFutureListener.CLOSE);
        }
        throw new CorruptedWebSocketFrameException(status, reason);
    }
}
