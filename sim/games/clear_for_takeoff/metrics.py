"""Clear for Takeoff metrics beyond the common ones (filled in below)."""
def game_metrics(df, cfg):
    return []
def game_plots(df, records, folder):
    return []
