package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.RdmapOpcode;

import java.util.ArrayList;
import java.util.List;

/** Records every listener event (in order) for assertions. */
final class RecordingListener implements RdmapListener {

    record SendCompletion(long id, OperationType type, OperationStatus status, long length, long original) {
    }

    record ReceiveCompletion(long id, OperationStatus status, RdmapOpcode opcode, int length, int invalidatedStag,
                             long immediate) {
    }

    final List<String> events = new ArrayList<>();
    final List<SendCompletion> sends = new ArrayList<>();
    final List<ReceiveCompletion> receives = new ArrayList<>();
    final List<Terminate> terminatesReceived = new ArrayList<>();
    final List<Terminate> terminatesSent = new ArrayList<>();
    final List<Throwable> fatalErrors = new ArrayList<>();
    final List<RtrType> rtrsSent = new ArrayList<>();
    final List<RtrType> rtrsReceived = new ArrayList<>();
    int readRequests;
    int atomicRequests;
    int writesPlaced;
    int transmitReady;

    @Override
    public void onReceiveComplete(long id, OperationStatus status, RdmapOpcode opcode, int byteLength,
                                  int invalidatedStag, long immediateData) {
        receives.add(new ReceiveCompletion(id, status, opcode, byteLength, invalidatedStag, immediateData));
        events.add("recv " + id + " " + status);
    }

    @Override
    public void onSendComplete(long id, OperationType type, OperationStatus status, long byteLength, long original) {
        sends.add(new SendCompletion(id, type, status, byteLength, original));
        events.add("send " + id + " " + status);
    }

    @Override
    public void onRdmaWritePlaced(int stag, long firstTaggedOffset, long length) {
        writesPlaced++;
    }

    @Override
    public void onReadRequestArrived(int sinkStag, long sinkTo, long size, int sourceStag, long sourceTo) {
        readRequests++;
    }

    @Override
    public void onAtomicRequestArrived(AtomicOpcode opcode, int stag, long taggedOffset) {
        atomicRequests++;
    }

    @Override
    public void onTerminateReceived(Terminate terminate) {
        terminatesReceived.add(terminate);
        events.add("terminate received " + terminate.describe());
    }

    @Override
    public void onTerminateSent(Terminate terminate) {
        terminatesSent.add(terminate);
        events.add("terminate sent " + terminate.describe());
    }

    @Override
    public void onFatalError(Throwable cause) {
        fatalErrors.add(cause);
        events.add("fatal " + cause.getMessage());
    }

    @Override
    public void onRtrSent(RtrType type) {
        rtrsSent.add(type);
    }

    @Override
    public void onRtrReceived(RtrType type) {
        rtrsReceived.add(type);
    }

    @Override
    public void onTransmitReady() {
        transmitReady++;
    }
}
