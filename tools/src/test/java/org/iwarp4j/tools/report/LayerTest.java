package org.iwarp4j.tools.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A layer nested for people but placed beside its parent in JSON: RDMAP inside DDP. */
class LayerTest {

    @Test
    void aChildBesideItsParentIsNestedForPeopleAndASiblingInJson() {
        Layer rdmap = new Layer("RDMAP  Send", "rdmap").field("RV", "1", "RFC 5040 §4.1", "", "rv", Json.num(1))
                .child(new Layer("Read Request header", "readRequest").json("size", Json.num(0)));
        Layer ddp = new Layer("DDP  untagged", "ddp").field("QN", "0", "RFC 5041 §4.3", "", "qn", Json.num(0))
                .childBeside(rdmap);
        Layer frame =
                new Layer("#1 FPDU", null).json("type", Json.str("fpdu")).child(ddp).json("notes", Json.arr(List.of()));

        assertThat(JsonWriter.write(frame.toJson())).isEqualTo(
                "{\"type\":\"fpdu\",\"notes\":[],\"ddp\":{\"qn\":0},"
                        + "\"rdmap\":{\"rv\":1,\"readRequest\":{\"size\":0}}}");
        assertThat(HumanRenderer.render(List.of(frame))).isEqualTo("""
                #1 FPDU
                  DDP  untagged
                    QN  0  RFC 5041 §4.3
                    RDMAP  Send
                      RV  1  RFC 5040 §4.1
                      Read Request header
                """);
    }
}
