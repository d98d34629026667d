/**
 * The conformance report of a TCK run: every rule's outcome, the rules a backend could not verify, and the
 * verdict line ({@code lockspi TCK: ...}). {@link org.lockspi.tck.report.CapabilityMissing} marks a test skipped
 * for a missing backend capability, which the report counts as not verified.
 */
package org.lockspi.tck.report;
