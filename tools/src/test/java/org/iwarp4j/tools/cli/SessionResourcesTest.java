package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.Rnic;
import org.junit.jupiter.api.Test;

/** What an rping or rdma_server session releases on a shared RNIC, and on its own. */
class SessionResourcesTest {

    @Test
    void onASharedRnicEachResourceIsClosedInTheReverseOrderOfItsAllocation() {
        try (Rnic rnic = Stacks.openRnic("session-resources-test")) {
            List<String> closed = new ArrayList<>();
            SessionResources r = new SessionResources(rnic, false);
            r.add(() -> closed.add("pd"));
            r.add(() -> closed.add("cq"));
            r.add(() -> closed.add("qp"));
            r.close();
            assertThat(closed).containsExactly("qp", "cq", "pd");
            assertThat(rnic.allocateProtectionDomain()).as("the RNIC serves on").isNotNull();
        }
    }

    @Test
    void aSharedRnicsProtectionDomainGoesOnceItsRegionHasGone() {
        try (Rnic rnic = Stacks.openRnic("session-resources-test")) {
            SessionResources r = new SessionResources(rnic, false);
            ProtectionDomain pd = r.add(rnic.allocateProtectionDomain());
            r.add(pd.allocateRegion(64));
            r.close();
            assertThatThrownBy(() -> pd.allocateRegion(64)).as("the protection domain is closed").isNotNull();
        }
    }

    @Test
    void aFailedAllocationClosesAnOwnRnicAndIsReturnedToBeThrown() {
        Rnic rnic = Stacks.openRnic("session-resources-test");
        SessionResources r = new SessionResources(rnic, true);
        r.add(rnic.allocateProtectionDomain());
        IllegalStateException failure = new IllegalStateException("no memory");
        assertThat(r.closeAfter(failure)).isSameAs(failure);
        assertThatThrownBy(rnic::allocateProtectionDomain).as("the RNIC is closed").isNotNull();
    }
}
