package org.iwarp4j.verbs.internal;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The pcap file a listener shares with the connections it accepts: open while the listener or any of those
 * connections is. The listener holds one reference from the start; each connection takes one with
 * {@link #connectionHolder()} and gives it back when its pipeline is torn down, after the capture handler
 * wrote its last packet; the last one closes the file. Writers synchronise on {@link #stream()} (Netty's
 * {@code PcapWriteHandler} with a shared output stream does), and so does the close.
 */
final class SharedPcapFile {

    private static final Logger LOG = LoggerFactory.getLogger(SharedPcapFile.class);

    private final OutputStream out;
    private int references = 1; // the listener's

    SharedPcapFile(OutputStream out) {
        this.out = out;
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
        return new ChannelHandlerAdapter() {
            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                release();
            }
        };
    }

    /** Gives one reference back; the last closes the file. */
    void release() {
        synchronized (this) {
            if (references == 0 || --references > 0) {
                return;
            }
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
