package org.iwarp4j.rdmap.stream;

import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream counts the segments it hands its lower layer through a wrapper: the wrapper must pass on every method
 * of {@link LlpSegmentWriter}, defaults included, or the lower layer's fast paths (in-place writes, lent payloads,
 * head- and tailroom) silently fall back to their defaults.
 */
class CountingLlpTest {

    @Test
    void theCountingWrapperOverridesEveryMethodOfTheLowerLayer() throws Exception {
        Class<?> wrapper = Class.forName(RdmapStream.class.getName() + "$CountingLlp");
        assertThat(LlpSegmentWriter.class.isAssignableFrom(wrapper)).isTrue();
        for (Method m : LlpSegmentWriter.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            Method own = wrapper.getDeclaredMethod(m.getName(), m.getParameterTypes());
            assertThat(own.getDeclaringClass()).as("%s%s", m.getName(), Arrays.toString(m.getParameterTypes()))
                    .isEqualTo(wrapper);
        }
    }
}
