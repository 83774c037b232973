"""Small user programs differentiated by the tests (their source is what s2s_ad reads)."""
