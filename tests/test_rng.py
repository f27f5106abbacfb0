"""The counter RNG: the jitted generator matches its pure-Python twin, streams are
independent of each other and of batch position, shuffles are permutations."""

import numpy as np

from sim.rng import CHANCE, POLICY, next_u64, py_next_u64, randint, seed_streams, shuffle


def test_jitted_generator_matches_python_twin():
    rng = np.zeros(2, np.uint64)
    seed_streams(rng, 7, 3)
    state = int(rng[CHANCE])
    for _ in range(100):
        state, want = py_next_u64(state)
        assert int(next_u64(rng, CHANCE)) == want


def test_streams_depend_on_seed_and_game_index_only():
    a = np.zeros(2, np.uint64)
    b = np.zeros(2, np.uint64)
    seed_streams(a, 11, 5)
    seed_streams(b, 11, 5)
    assert list(a) == list(b)
    seed_streams(b, 11, 6)
    assert a[CHANCE] != b[CHANCE]
    seed_streams(b, 12, 5)
    assert a[CHANCE] != b[CHANCE]
    assert a[CHANCE] != a[POLICY]


def test_policy_draws_do_not_move_the_chance_stream():
    a = np.zeros(2, np.uint64)
    seed_streams(a, 1, 1)
    first = int(next_u64(a, CHANCE))
    seed_streams(a, 1, 1)
    for _ in range(10):
        next_u64(a, POLICY)
    assert int(next_u64(a, CHANCE)) == first


def test_randint_is_uniform_enough():
    rng = np.zeros(2, np.uint64)
    seed_streams(rng, 3, 0)
    counts = np.zeros(6, int)
    for _ in range(60_000):
        counts[randint(rng, CHANCE, 6)] += 1
    # each face 10,000 expected; 5 sd = 456
    assert np.all(np.abs(counts - 10_000) < 456), counts


def test_shuffle_is_a_permutation_of_the_slice():
    rng = np.zeros(2, np.uint64)
    seed_streams(rng, 9, 9)
    arr = np.arange(20, dtype=np.int32)
    shuffle(arr, 5, 15, rng, CHANCE)
    assert list(arr[:5]) == [0, 1, 2, 3, 4] and list(arr[15:]) == list(range(15, 20))
    assert sorted(arr[5:15]) == list(range(5, 15)) and list(arr[5:15]) != list(range(5, 15))
