"""Downtown tables of the random deals (benchmarks/data/downtown.pbn);
checked against DDS with the ranks relabelled (K->2 ... 2->K, A stays)."""
import bench_support as bs


def test_downtown_tables(benchmark):
    tasks = bs.pick("downtown", benchmark)
    assert all(t.ranking == "down" for t in tasks)
    results = bs.run(benchmark, tasks)
    bs.check_dds(tasks, results)
