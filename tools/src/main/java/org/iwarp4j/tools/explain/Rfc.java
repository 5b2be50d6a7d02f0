package org.iwarp4j.tools.explain;

/** The RFC sections explain cites, written once. */
final class Rfc {
    static final String MPA_FRAME = "RFC 5044 §7.1.1";
    static final String MPA_STARTUP = "RFC 5044 §7.1.2";
    static final String MPA_CRC = "RFC 5044 §4.4";
    static final String MPA_FPDU = "RFC 5044 §4.1";
    static final String MPA_MARKERS = "RFC 5044 §4.3";
    static final String MPA_ERRORS = "RFC 5044 §8";
    static final String MPA_MULPDU = "RFC 5044 §3";
    static final String ENHANCED_FRAME = "RFC 6581 §6";
    static final String ENHANCED_DATA = "RFC 6581 §9";
    static final String IRD_ORD = "RFC 6581 §9.1";
    static final String RTR = "RFC 6581 §9.2";
    static final String DDP_HEADERS = "RFC 5041 §4";
    static final String DDP_CONTROL = "RFC 5041 §4.1";
    static final String DDP_TAGGED = "RFC 5041 §4.2";
    static final String DDP_UNTAGGED = "RFC 5041 §4.3";
    static final String DDP_SEGMENTATION = "RFC 5041 §5.2";
    static final String DDP_MESSAGE_LENGTH = "RFC 5041 §5.2, §7.1";
    static final String DDP_ERRORS = "RFC 5041 §7.1";
    static final String DDP_ERROR_CODES = "RFC 5041 §7.2";
    static final String RDMAP_CONTROL = "RFC 5040 §4.1";
    static final String RDMAP_OPCODES = "RFC 5040 §4.2";
    static final String RDMAP_WRITE = "RFC 5040 §4.3";
    static final String RDMAP_READ_REQUEST = "RFC 5040 §4.4";
    static final String RDMAP_READ_RESPONSE = "RFC 5040 §4.5";
    static final String RDMAP_SEND = "RFC 5040 §4.6";
    static final String RDMAP_TERMINATE = "RFC 5040 §4.8";
    static final String RDMAP_READ = "RFC 5040 §5.2";
    static final String RDMAP_SEND_SEMANTICS = "RFC 5040 §5.3";
    static final String RDMAP_TERMINATE_USE = "RFC 5040 §5.4";
    static final String RDMAP_ERROR_HANDLING = "RFC 5040 §7.1";
    static final String RDMAP_VALIDATION = "RFC 5040 §7.2";
    static final String ATOMIC_SEMANTICS = "RFC 7306 §5.1";
    static final String ATOMIC_REQUEST = "RFC 7306 §5.2.1";
    static final String ATOMIC_RESPONSE = "RFC 7306 §5.2.2";
    static final String IMMEDIATE_DATA = "RFC 7306 §6.2";
    static final String EXT_ERRORS = "RFC 7306 §8.2";
    static final String SIW_FINDINGS = "interop/FINDINGS.md";

    private Rfc() {}
}
