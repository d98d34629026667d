package org.lockspi.bench.internal;

final class VirtualThreadScenario extends Scenario {
    VirtualThreadScenario(Scenario.Env env) {
        super(env);
    }

    @Override
    void run() {
    }
}
