package org.iwarp4j.conformance.siw;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.pcap.PcapFormatException;
import org.iwarp4j.tools.pcap.TcpConnection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes every octet of a captured iWARP connection with the stack's own decoders: the MPA Request and
 * Reply ({@link MpaFrameCodec}), then each direction's FPDUs ({@link FpduReader}, CRC as negotiated),
 * each ULPDU's DDP and RDMAP control fields ({@link RdmapControl}), and every Terminate
 * ({@link TerminateDecoder}, siw's bit-mirrored layout preferred). Whatever a decoder refuses is recorded as
 * a problem (with the direction: I2R = from the MPA Initiator), never thrown.
 */
final class SiwCaptureWalk {

    /** A decoded Terminate and the direction it travelled. */
    record DecodedTerminate(String direction, Terminate terminate) {}

    final List<String> problems = new ArrayList<>();
    final List<DecodedTerminate> terminates = new ArrayList<>();
    final List<MpaFrame> frames = new ArrayList<>();
    int ulpdus;

    static SiwCaptureWalk of(String name, byte[] pcap) {
        SiwCaptureWalk w = new SiwCaptureWalk();
        Capture capture;
        try {
            capture = Capture.read(pcap);
        } catch (PcapFormatException e) {
            w.problems.add("pcap: " + e.getMessage());
            return w;
        }
        for (TcpConnection c : capture.connections()) {
            w.connection(c);
        }
        return w;
    }

    private void connection(TcpConnection c) {
        HalfStream i2r = startsWithRequest(c.first()) ? c.first() : startsWithRequest(c.second()) ? c.second() : null;
        if (i2r == null) {
            if (c.first().length() + c.second().length() > 0) {
                problems.add("no MPA Request in a connection with data");
            }
            return;
        }
        HalfStream r2i = i2r == c.first() ? c.second() : c.first();
        MpaFrame request = frame("I2R", i2r.bytes());
        if (request == null) {
            return;
        }
        if (r2i.length() == 0) {
            if (i2r.length() > request.length()) {
                problems.add("I2R: " + (i2r.length() - request.length()) + " octets after the Request, no Reply");
            }
            return;
        }
        MpaFrame reply = frame("R2I", r2i.bytes());
        if (reply == null) {
            return;
        }
        if (reply.rejected()) {
            if (r2i.length() > reply.length()) {
                problems.add("R2I: octets after a rejecting Reply");
            }
            return;
        }
        boolean crc = request.crc() || reply.crc();
        fpdus("I2R", i2r.bytes(), request.length(), crc, reply.markers());
        fpdus("R2I", r2i.bytes(), reply.length(), crc, request.markers());
    }

    private static boolean startsWithRequest(HalfStream s) {
        byte[] b = s.bytes();
        return b.length >= 16 && Arrays.equals(Arrays.copyOf(b, 16), StartupFrame.REQUEST_KEY);
    }

    private MpaFrame frame(String direction, byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        try {
            MpaFrame f = MpaFrameCodec.parse(in);
            if (f == null) {
                problems.add(direction + ": incomplete MPA frame (" + bytes.length + " octets)");
            } else {
                frames.add(f);
                if ((direction.equals("I2R")) != (f.type() == MpaFrameType.REQUEST)) {
                    problems.add(direction + ": unexpected frame type " + f.type());
                }
            }
            return f;
        } catch (MpaException e) {
            problems.add(direction + ": invalid MPA frame: " + e.getMessage());
            return null;
        }
    }

    private void fpdus(String direction, byte[] stream, int from, boolean crc, boolean markers) {
        FpduReader reader = new FpduReader(crc, markers, 0xFFFF, 0);
        ByteBuf in = Bytes.ALLOC.buffer(stream.length).writeBytes(stream, from, stream.length - from);
        boolean first = true;
        try {
            while (in.isReadable()) {
                ByteBuf u;
                try {
                    u = reader.read(in, Bytes.ALLOC);
                } catch (MpaException e) {
                    // RFC 5044 §8 (MPA-44): nothing more of this half connection is passed up
                    problems.add(direction + ": " + e.error() + " " + e.detail());
                    return;
                }
                if (u == null) {
                    problems.add(direction + ": " + in.readableBytes() + " octets of an incomplete FPDU at the end");
                    return;
                }
                try {
                    ulpdu(direction, u, first);
                } finally {
                    u.release();
                }
                first = false;
            }
        } finally {
            in.release();
        }
    }

    private void ulpdu(String direction, ByteBuf u, boolean first) {
        ulpdus++;
        int control = u.getUnsignedByte(0);
        boolean tagged = (control & 0x80) != 0;
        int header = tagged ? 14 : 18;
        if (u.readableBytes() < header) {
            problems.add(direction + ": ULPDU of " + u.readableBytes() + " octets, shorter than its DDP header");
            return;
        }
        if ((control & 0x03) != 1) {
            problems.add(direction + ": DDP version " + (control & 0x03));
            return;
        }
        int rsvdUlp = u.getUnsignedByte(1);
        if (RdmapControl.version(rsvdUlp) != RdmapControl.RDMAP_VERSION) {
            problems.add(direction + ": RDMAP version " + RdmapControl.version(rsvdUlp));
            return;
        }
        RdmapOpcode opcode = RdmapControl.opcode(rsvdUlp);
        if (opcode == null || opcode.tagged() != tagged) {
            problems.add(direction + ": opcode 0x" + Integer.toHexString(rsvdUlp & 0xF)
                    + (tagged ? " tagged" : " untagged"));
            return;
        }
        if (!tagged && u.getInt(6) != opcode.queueNumber()) {
            problems.add(direction + ": " + opcode + " on QN " + u.getInt(6));
            return;
        }
        if (opcode == RdmapOpcode.TERMINATE) {
            Terminate t = TerminateDecoder.decode(u, u.readerIndex() + 18, u.readableBytes() - 18,
                    TerminateLayout.SIW_MIRRORED,
                    first ? TerminateDecoder.Phase.SETUP : TerminateDecoder.Phase.RUNNING);
            terminates.add(new DecodedTerminate(direction, t));
            if (t.cause() == null) {
                problems.add(direction + ": Terminate with an undefined cause " + t);
            }
        }
    }
}
