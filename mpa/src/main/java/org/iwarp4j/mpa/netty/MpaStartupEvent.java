package org.iwarp4j.mpa.netty;

/**
 * The one user event {@link MpaStartupHandler} fires when startup ends, exactly once per connection:
 * {@link MpaEstablishedEvent}, {@link MpaRejectedEvent} or {@link MpaStartupFailedEvent}.
 */
public sealed interface MpaStartupEvent permits MpaEstablishedEvent, MpaRejectedEvent, MpaStartupFailedEvent {
}
