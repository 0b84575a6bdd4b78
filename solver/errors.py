"""The errors a user can cause (a bad card, a bad deal, an illegal play, a
bad tag...).  Their messages are meant to be shown as they are, without a
traceback; every layer raises these and the command line reports them."""


class WhistError(Exception):
    """An error a user caused (bad card, bad deal, illegal play...).

    The message is meant to be shown as is, without a traceback."""


class CardError(WhistError):
    pass


class PositionError(WhistError):
    pass
