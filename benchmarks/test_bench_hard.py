"""Slow deals (benchmarks/data/hard.pbn): symmetric constructions and
freak deals.  Checked against DDS, except board 2 (the four-void no-trump
position) where DDS alone takes about 30 s."""
import bench_support as bs


def test_hard_deals(benchmark):
    tasks = bs.pick("hard", benchmark)
    results = bs.run(benchmark, tasks)
    bs.check_dds(tasks, results, skip={"2"})
