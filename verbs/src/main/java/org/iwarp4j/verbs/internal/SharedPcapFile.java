package org.iwarp4j.verbs.internal;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.pcap.PcapWriteHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A pcap file shared by every listener and connection of this JVM that captures to the same path: the first to
 * open it truncates it and writes the global header, the others append to it, and it stays open while any of them
 * is (a tool that makes several connections, a perftest client's control and test connections or both ends of
 * {@code --loopback}, writes one capture instead of overwriting it). Each holder has one reference: a listener from
 * {@link #open} until it closes, a connection from {@link #open} or {@link #connectionHolder()} until its pipeline
 * is torn down, after the capture handler wrote its last packet; the last one closes the file. Writers synchronise
 * on {@link #stream()} (Netty's {@code PcapWriteHandler} with a shared output stream does), and so does the close.
 */
final class SharedPcapFile {

    private static final Logger LOG = LoggerFactory.getLogger(SharedPcapFile.class);
    /** The files open in this JVM, by absolute path; guarded by itself, taken before any file's own lock. */
    private static final Map<Path, SharedPcapFile> OPEN = new HashMap<>();

    private final Path path;
    private final OutputStream out;
    private int references = 1; // the opener's

    private SharedPcapFile(Path path, OutputStream out) {
        this.path = path;
        this.out = out;
    }

    /**
     * The capture file at {@code file} with one reference taken for the caller: the one already open in this JVM,
     * or a new one (truncated, with pcap's global header).
     */
    static SharedPcapFile open(Path file) throws IOException {
        Path key = file.toAbsolutePath().normalize();
        synchronized (OPEN) {
            SharedPcapFile f = OPEN.get(key);
            if (f != null) {
                synchronized (f) {
                    f.references++;
                }
                return f;
            }
            OutputStream out = new BufferedOutputStream(Files.newOutputStream(key));
            try {
                PcapWriteHandler.writeGlobalHeader(out);
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
            f = new SharedPcapFile(key, out);
            OPEN.put(key, f);
            return f;
        }
    }

    OutputStream stream() {
        return out;
    }

    /**
     * A handler holding one reference for a connection, or {@code null} when the file is closed already (the
     * listener closed and every earlier connection ended): that connection is not captured. Put it in front
     * of the capture handler: a pipeline is torn down from its tail, so the capture handler is gone (its
     * closing packets written) before this one gives the reference back.
     */
    ChannelHandler connectionHolder() {
        synchronized (this) {
            if (references == 0) {
                return null;
            }
            references++;
        }
        return releasedOnRemoval();
    }

    /** A handler that gives back one reference the caller holds when it leaves its pipeline. */
    ChannelHandler releasedOnRemoval() {
        return new ChannelHandlerAdapter() {
            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                release();
            }
        };
    }

    /** Gives one reference back; the last closes the file. */
    void release() {
        synchronized (OPEN) {
            synchronized (this) {
                if (references == 0 || --references > 0) {
                    return;
                }
            }
            OPEN.remove(path, this);
        }
        try {
            synchronized (out) {
                out.close();
            }
        } catch (IOException e) {
            LOG.warn("closing the pcap file failed", e);
        }
    }

    /** Whether the file is still open (for tests). */
    synchronized boolean isOpen() {
        return references > 0;
    }
}
